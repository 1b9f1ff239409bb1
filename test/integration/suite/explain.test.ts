import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeLenses, hoverMarkdown, openFile, poll, positionOf, revert, settled } from './helpers';

interface ExplainMessage {
  type: 'explain' | 'none';
  target?: { line: number };
  data?: {
    title: string;
    totalParameters: string;
    totalFlops: { exact: string; text: string };
    steps: { name: string; shape: string; flops: { exact: string } }[];
    scores: { elements: string };
    settings: string[][];
  };
}

const fmt = (x: number) => x.toLocaleString('en-US');

// test/integration/workspace/forward_errors.py: nn.MultiheadAttention(d_model, heads, batch_first=True)
// on line 59 (ProjectedQueryAttention) and line 107 (CorrectBlock), d_model 512, heads 8.
suite('Explain attention shapes panel', () => {
  let api: { explainPanel: { message(): ExplainMessage | undefined; receive(m: unknown): Promise<void> } };
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('forward_errors.py');
    api = (await activateExtension()).exports as typeof api;
  });

  test('opens on the layer, with the same count as the hover', async () => {
    const at = positionOf(doc, 'nn.MultiheadAttention(d_model, heads, batch_first=True)');
    await vscode.commands.executeCommand('attentionLens.explainShapes', [doc.uri.toString(), at.line, at.character]);
    const message = await poll(
      () => api.explainPanel.message(),
      (m) => m?.type === 'explain' && m.target?.line === at.line,
    );
    assert.ok(message?.data);
    assert.strictEqual(message.data.totalParameters, '1,050,624');
    assert.deepStrictEqual(
      message.data.settings.find(([k]) => k === 'd_k = E / h'),
      ['d_k = E / h', '64'],
    );
    // Until the user sets sizes, those of the model sizing settings (batch 1, 1,024 tokens, bf16).
    assert.deepStrictEqual((message.data as unknown as { inputs: unknown }).inputs, {
      batch: 1,
      queryLength: 1024,
      keyLength: 1024,
      dtype: 'bfloat16',
      selfAttention: true,
    });
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Explain attention shapes');
    assert.ok(tab?.input instanceof vscode.TabInputWebview, 'a webview tab');
  });

  test('FLOPs and the score matrix for the sizes the user sets', async () => {
    await api.explainPanel.receive({
      type: 'inputs',
      inputs: { batch: 2, queryLength: 10, keyLength: 12, dtype: 'float32', selfAttention: false },
    });
    const message = await poll(
      () => api.explainPanel.message(),
      (m) => m?.data?.scores.elements === fmt(2 * 8 * 10 * 12),
    );
    const [E, h, dk, N, L, S] = [512, 8, 64, 2, 10, 12];
    const steps = message!.data!.steps;
    assert.strictEqual(steps[0].flops.exact, fmt(2 * N * L * E * E + N * L * E));
    assert.strictEqual(steps[4].flops.exact, fmt(2 * N * h * L * S * dk + N * h * L * S));
    assert.strictEqual(steps[4].shape, '(N, 8, L, S)');
    assert.strictEqual(steps[6].flops.exact, fmt(2 * N * h * L * S * dk));
  });

  test('sizes that are not sizes are refused with a message per field; the walkthrough keeps the last valid ones', async () => {
    const before = api.explainPanel.message();
    await api.explainPanel.receive({
      type: 'inputs',
      inputs: { batch: '0', queryLength: '2.5', keyLength: '', dtype: 'float32', selfAttention: false },
    });
    const refused = api.explainPanel.message() as unknown as { type: string; errors: Record<string, string> };
    assert.deepStrictEqual(refused, {
      type: 'invalid',
      errors: {
        batch: '0 is not a size: enter 1 or more.',
        queryLength: '2.5 is not a whole number.',
        keyLength: 'Empty: enter a whole number, 1 or more.',
      },
    });
    // A valid form again: the walkthrough follows it, with one input for Q, K and V (S is L).
    await api.explainPanel.receive({
      type: 'inputs',
      inputs: { batch: '2', queryLength: '10', keyLength: '', dtype: 'float32', selfAttention: true },
    });
    const message = await poll(
      () => api.explainPanel.message(),
      (m) => m?.type === 'explain',
    );
    assert.notDeepStrictEqual(message, before);
    assert.strictEqual(message?.data?.scores.elements, fmt(2 * 8 * 10 * 10));
  });

  test('Copy as Markdown puts the walkthrough on the clipboard and says so', async () => {
    await vscode.env.clipboard.writeText('');
    // A walkthrough still on its way would arrive after the copy's answer and replace it.
    await settled(() => api.explainPanel.message());
    await api.explainPanel.receive({ type: 'copy' });
    assert.deepStrictEqual(api.explainPanel.message(), { type: 'copied', ok: true });
    const markdown = await vscode.env.clipboard.readText();
    assert.ok(markdown.startsWith('# `nn.MultiheadAttention` at `forward_errors.py:'), markdown.slice(0, 200));
    assert.match(markdown, /\| `output = heads · W_O \+ b_O` \|/);
  });

  test('the title links back to the layer: its line in the editor', async () => {
    const at = positionOf(doc, 'nn.MultiheadAttention(d_model, heads, batch_first=True)');
    await vscode.commands.executeCommand('attentionLens.explainShapes', [doc.uri.toString(), at.line, at.character]);
    await poll(
      () => api.explainPanel.message(),
      (m) => m?.type === 'explain' && m.target?.line === at.line,
    );
    // The cursor elsewhere and the panel in front: the link brings the layer's line back.
    const first = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    first.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('workbench.action.focusNextGroup');
    await api.explainPanel.receive({ type: 'reveal' });
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), doc.uri.toString());
    assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [at.line, at.character]);
  });

  test('follows the cursor to another attention layer, and the source as it changes', async () => {
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const second = positionOf(doc, 'nn.MultiheadAttention(d_model, heads, batch_first=True)', 0, 1);
    editor.selection = new vscode.Selection(second, second);
    await poll(
      () => api.explainPanel.message(),
      (m) => m?.target?.line === second.line,
    );
    const heads = positionOf(doc, 'def __init__(self, d_model: int = D_MODEL, heads: int = 8)', 0, 1);
    const edit = new vscode.WorkspaceEdit();
    const eight = doc.lineAt(heads.line).text.lastIndexOf('8');
    edit.replace(doc.uri, new vscode.Range(heads.line, eight, heads.line, eight + 1), '16');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const message = await poll(
        () => api.explainPanel.message(),
        (m) => m?.data?.settings.some(([k, v]) => k === 'd_k = E / h' && v === '32') ?? false,
      );
      assert.ok(message?.data?.settings.some(([k, v]) => k === 'num_heads (h)' && v === '16'));
    } finally {
      await revert(doc);
    }
  });

  test('attention written by hand: the class lens opens the panel on its real layout', async () => {
    // gpt.py: nanoGPT's CausalSelfAttention (one fused c_attn, c_proj), built by `model = GPT(GPTConfig())`.
    const gpt = await openFile('gpt.py');
    const at = positionOf(gpt, 'CausalSelfAttention(nn.Module)');
    const lens = await poll(
      () => codeLenses(gpt.uri),
      (ls) => ls.some((l) => l.range.start.line === at.line && l.command?.title.includes('heads')),
    );
    const own = lens.find((l) => l.range.start.line === at.line && l.command?.title.includes('heads'))!;
    assert.ok(own.command!.title.endsWith('· 12 heads × 64 · in GPT (line 202)'), own.command!.title);
    assert.strictEqual(own.command!.command, 'attentionLens.explainShapes');
    await vscode.commands.executeCommand(own.command!.command, ...(own.command!.arguments ?? []));
    const message = await poll(
      () => api.explainPanel.message(),
      (m) => m?.type === 'explain' && m.target?.line === at.line,
    );
    assert.strictEqual(message?.data?.title, `CausalSelfAttention at gpt.py:${at.line + 1}`);
    // c_attn 768 × 2,304 + 2,304 and c_proj 768 × 768 + 768, as PyTorch counts them.
    assert.strictEqual(message?.data?.totalParameters, fmt(768 * 2304 + 2304 + 768 * 768 + 768));
    assert.deepStrictEqual(
      message?.data?.settings.find(([k]) => k === 'heads'),
      ['heads', '12'],
    );
    const hover = await hoverMarkdown(gpt.uri, at);
    assert.ok(hover.includes('W_Q, W_K, W_V stacked') && hover.includes('Explain attention shapes'), hover);
  });

  test('from inside an attention class (its forward, a projection line) the command opens that class at once', async () => {
    const gpt = await openFile('gpt.py');
    const cls = positionOf(gpt, 'CausalSelfAttention(nn.Module)');
    const editor = await vscode.window.showTextDocument(gpt);
    for (const inside of ['self.c_proj = nn.Linear(', 'q, k, v = self.c_attn(x)']) {
      const at = positionOf(gpt, inside);
      editor.selection = new vscode.Selection(at, at);
      // With a picker this would wait for the user: the panel must open on the class without one.
      void vscode.commands.executeCommand('attentionLens.explainShapes');
      const message = await poll(
        () => api.explainPanel.message(),
        (m) => m?.type === 'explain' && m.target?.line === cls.line,
      );
      assert.strictEqual(message?.data?.title, `CausalSelfAttention at gpt.py:${cls.line + 1}`, inside);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });
});
