import * as assert from 'assert';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as vscode from 'vscode';
import { activateExtension, lensTitles, openFile, poll, typeKeys, workspaceUri } from './helpers';

/**
 * 5,000 lines as dense as a large model file (timm's vision_transformer.py: 4,000 lines, about 100 layer
 * sites): 150 blocks of 33 lines, each a class with a docstring, three layers and a forward(), and a model
 * built from every tenth.
 */
function bigFile(): string {
  const lines = ['import torch', 'import torch.nn as nn', ''];
  for (let i = 0; lines.length < 5_000; i++)
    lines.push(
      `class Block${i}(nn.Module):`,
      '    """A block of the model.',
      '',
      '    It projects its input up, applies an activation, and projects it back down; the residual',
      '    path adds the input to the output. Sizes come from the arguments.',
      '    """',
      '',
      `    def __init__(self, dim=${64 + (i % 8) * 16}, ratio=4, bias=True):`,
      '        super().__init__()',
      '        hidden = dim * ratio',
      '        self.norm = nn.LayerNorm(dim)',
      '        self.up = nn.Linear(dim, hidden, bias=bias)',
      '        self.down = nn.Linear(hidden, dim, bias=bias)',
      '        self.act = nn.GELU()',
      '        self.scale = 1.0',
      '',
      '    def forward(self, x):',
      '        # the residual path',
      '        y = self.norm(x)',
      '        y = self.up(y)',
      '        y = self.act(y)',
      '        y = self.down(y)',
      '        return x + y * self.scale',
      '',
      '',
      '# ' + '-'.repeat(70),
      '',
      ...(i % 10 ? ['', '', '', '', '', ''] : [`m${i} = Block${i}(128)`, '', '', '', '', '']),
    );
  return `${lines.join('\n')}\n`;
}

// The analysis runs on a worker thread: the extension host's own thread, which every extension's hovers,
// completions and typing share, goes on while a large file is analysed after each pause in typing.
suite('the extension host is not blocked by analysis', () => {
  test('typing into a 5,000-line file key by key: the host thread answers while the file is analysed on the worker', async function () {
    this.timeout(120_000);
    await vscode.workspace.fs.writeFile(workspaceUri('big5000.py'), Buffer.from(bigFile()));
    const doc = await openFile('big5000.py');
    const api = (await activateExtension()).exports as {
      startTimingTurns(): void;
      stopTimingTurns(): Record<string, number>;
    };
    const editor = vscode.window.activeTextEditor!;
    await poll(
      () => lensTitles(doc.uri),
      (t) => t.length > 0,
    );
    const line = 2_506;
    editor.selection = new vscode.Selection(line, 0, line, 0);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    // A pause after every few keys, longer than the debounce: the file is analysed again each time.
    const typeTimed = async (typed: string) => {
      api.startTimingTurns();
      for (let i = 0; i < typed.length; i += 3) {
        await typeKeys(typed.slice(i, i + 3));
        await new Promise((r) => setTimeout(r, 400));
      }
      // The collector's pauses are reported after the turn they paused.
      await new Promise((r) => setTimeout(r, 100));
      return api.stopTimingTurns();
    };
    delay.enable();
    let turns = await typeTimed('fc = nn.Linear(64, 7)\n');
    // A turn of 0.3 ms of work took 12 to 16 ms once in a while on a loaded two-core machine, its waits for a
    // core and the collector's pauses left out: a stall of ours shows again when the same is typed once more
    // (on the next line), so each kind's figure is the shorter of two rounds' when the first passes 20 ms.
    if (Object.values(turns).some((ms) => ms >= 20)) {
      const again = await typeTimed('gc = nn.Linear(64, 7)\n');
      turns = Object.fromEntries(Object.entries(turns).map(([what, ms]) => [what, Math.min(ms, again[what] ?? ms)]));
    }
    delay.disable();
    // Every lens resolved: the editor resolves only those on screen.
    const titles = await poll(
      () => lensTitles(doc.uri, 1_000),
      (t) => t.some((x) => x.startsWith(`${line}: 455 params`)),
    );
    assert.ok(
      titles.some((x) => x.startsWith(`${line}: 455 params`)),
      titles.slice(0, 5).join(' | '),
    );
    const maxMs = delay.max / 1e6;
    const p99 = delay.percentile(99) / 1e6;
    const ours = Object.entries(turns)
      .map(([what, ms]) => `${what} ${ms.toFixed(1)}`)
      .join(', ');
    console.log(
      `      event loop delay while typing: max ${maxMs.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; our longest turns (ms): ${ours}`,
    );
    // What the analysis costs this thread, turn by turn: taking each reply in from the worker, applying it,
    // refreshing the surfaces, and each provider's answer, each the clock's time less the thread's waits for
    // a core and the collector's pauses (hostTurns.ts). The host stalls for other reasons too (the editor's
    // own work, the collector, the built-in extensions, two cores shared with the browser, the server and
    // the worker: max 9 ms typing plain text, 20 to 90 ms here), but no turn of ours may take 20 ms; the
    // longest measured 2 to 9 ms in most rounds.
    assert.ok(
      ['receiving an analysis', 'applying an analysis', 'refreshing the surfaces', 'diagnostics'].every(
        (t) => t in turns,
      ),
      ours,
    );
    for (const [what, ms] of Object.entries(turns))
      assert.ok(ms < 20, `${what} held the host's thread ${ms.toFixed(1)} ms`);
    // Analysed in this thread, the host stalled 200 ms at each pause (p99 110 to 125 ms); on the worker, with
    // each analysis cloned into this thread whole, p99 25 to 31 ms (max 63 to 133). Now the analysis arrives
    // in chunks taken in a turn each, the worker's thread gives way to this one, and moving the cursor asks
    // for no analysis: p99 16 to 18 ms alone, up to 31 ms after the whole suite (a larger heap to collect), on
    // two cores shared with the browser, the server and the worker. Lenses sent without their titles (the
    // editor resolves those on screen) cut the reply after each pause from 210 KB to 66 KB: p99 10 to 16 ms,
    // max 20 to 57 ms, where typing into plain text gives max 9 ms; what is left is mostly garbage collection
    // of the analyses taken in, and the built-in extensions. The bound stays where a real stall shows. The
    // delay is measured while typing, not while the test asks for every lens resolved.
    assert.ok(p99 < 50, `the extension host stalled: p99 ${p99.toFixed(1)} ms, max ${maxMs.toFixed(1)} ms`);
  });
});
