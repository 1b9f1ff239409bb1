import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeOf, openFile, poll, waitForDiagnostics } from './helpers';

// test/integration/workspace/forward_errors.py is test/fixtures/models/pytorch/forward_errors.py: six shape
// errors that PyTorch raises on the first forward call (scripts/ground-truth/pytorch_forward.py).
suite('shapes followed through forward()', () => {
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('forward_errors.py');
    await activateExtension();
  });

  test('the mismatches are diagnostics at the call, pointing at both definitions', async () => {
    const diagnostics = await waitForDiagnostics(doc.uri, (ds) => ds.length >= 6);
    assert.deepStrictEqual(
      diagnostics.map((d) => `${d.range.start.line + 1} ${codeOf(d)}`),
      [
        '25 sequential-mismatch',
        '40 feature-mismatch',
        '51 feature-mismatch',
        '62 attention-embed-mismatch',
        '85 feature-mismatch',
        '97 feature-mismatch',
      ],
    );
    const mlp = diagnostics[1];
    assert.match(mlp.message, /expects 1,024 input features, but its input has 2,048/);
    assert.deepStrictEqual(
      mlp.relatedInformation?.map((r) => r.location.range.start.line + 1),
      [36, 35],
    );
  });

  test('inlay hints show the sizes in forward() when switched on', async () => {
    const config = vscode.workspace.getConfiguration('attentionLens');
    const range = new vscode.Range(0, 0, doc.lineCount, 0);
    const hints = () =>
      vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, range);
    assert.deepStrictEqual(await hints(), [], 'off by default');
    await config.update('inlayHints.enabled', true, vscode.ConfigurationTarget.Global);
    try {
      const shown = await poll(hints, (h) => h.length > 0);
      const labels = shown.map((h) => `${h.position.line + 1} ${typeof h.label === 'string' ? h.label : ''}`);
      assert.ok(labels.includes('39 → 2,048'), labels.join(' | '));
    } finally {
      await config.update('inlayHints.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
