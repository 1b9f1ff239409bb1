import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, hoverMarkdown, openFile, poll, positionOf, settled } from './helpers';

interface Figure {
  amount?: { exact: string; text: string };
  unknown?: string;
}
interface ModelMessage {
  type: 'model' | 'none' | 'invalid' | 'copied';
  target?: { line: number };
  errors?: Record<string, string>;
  data?: {
    name: string;
    inputs: { batch: number; sequence: number; dtype: string; optimizer: string };
    parameters: { label: string; count: string }[];
    flops: { forwardPerToken: Figure; trainingStep: Figure };
    activations: { total: Figure; layers: { path: string; line?: number }[] };
  };
}

// gpt.py is test/fixtures/models/pytorch/gpt.py (GPT-2 small): `class GPT` on line 107 (1-based), `class Block`
// on line 92, and `model = GPT(GPTConfig())` on line 202. Its figures are checked in test/unit/modelPanel.test.ts.
suite('Explain model sizing panel', () => {
  let api: { modelPanel: { message(): ModelMessage | undefined; receive(m: unknown): Promise<void> } };
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('gpt.py');
    api = (await activateExtension()).exports as typeof api;
  });

  test('the command opens the panel on the model of the class at the cursor, with the total of the hover', async () => {
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const at = positionOf(doc, 'class GPT(', 7);
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('attentionLens.explainModel');
    const message = await poll(
      () => api.modelPanel.message(),
      (m) => m?.type === 'model',
    );
    assert.strictEqual(message?.target?.line, 201);
    assert.deepStrictEqual(message?.data?.parameters[0], { label: 'total', count: '124,439,808', note: '' });
    // The settings' defaults: bf16, AdamW in mixed precision, 1 × 1,024 tokens.
    assert.deepStrictEqual(message?.data?.inputs, { dtype: 'bf16', optimizer: 'adamwMixed', batch: 1, sequence: 1024 });
    assert.strictEqual(message?.data?.activations.total.amount?.exact, '618,255,976');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Explain model sizing');
    assert.ok(tab?.input instanceof vscode.TabInputWebview, 'a webview tab');
  });

  test('the model hover links to the panel under its title, and gives its memory once', async () => {
    const md = await hoverMarkdown(doc.uri, positionOf(doc, 'model = GPT(GPTConfig())', 9));
    const paragraphs = md.split('\n\n');
    assert.ok(paragraphs[0].startsWith('**GPT**: 124,439,808 parameters'), md);
    assert.ok(paragraphs[1].startsWith('[Explain model sizing](command:attentionLens.explainModel?'), md);
    assert.strictEqual(md.split('Weights:').length, 2, md);
  });

  test('inputs refused with a message per field; valid ones change the figures', async () => {
    await api.modelPanel.receive({
      type: 'inputs',
      inputs: { batch: '-1', sequence: 'x', dtype: 'bf16', optimizer: 'adamwMixed' },
    });
    assert.deepStrictEqual(api.modelPanel.message(), {
      type: 'invalid',
      errors: { batch: 'A size cannot be negative: enter 1 or more.', sequence: '"x" is not a number.' },
    });
    await api.modelPanel.receive({
      type: 'inputs',
      inputs: { batch: '2', sequence: '64', dtype: 'fp32', optimizer: 'sgdMomentum' },
    });
    const message = await poll(
      () => api.modelPanel.message(),
      (m) => m?.data?.inputs.batch === 2,
    );
    // 2 · (123,532,032 in · out of the linear layers) + 2 · 64 tokens · 12 layers · 2 · 768 a token; × 3 × 2 × 64.
    assert.strictEqual(
      message?.data?.flops.trainingStep.amount?.exact,
      (3 * (2 * 123_532_032 + 2 * 64 * 12 * 1536) * 2 * 64).toLocaleString('en-US'),
    );
    // What PyTorch keeps for 2 × 64 tokens in fp32 (test/fixtures/expected/pytorch-activations.json).
    assert.strictEqual(message?.data?.activations.total.amount?.exact, '80,691,816');
  });

  test('Copy as Markdown says it copied; a layer’s link goes to its line', async () => {
    // Figures still on their way would arrive after the copy's answer and replace it.
    const layers = (await settled(() => api.modelPanel.message()))?.data?.activations.layers ?? [];
    await vscode.env.clipboard.writeText('');
    await api.modelPanel.receive({ type: 'copy' });
    assert.deepStrictEqual(api.modelPanel.message(), { type: 'copied', ok: true });
    assert.ok((await vscode.env.clipboard.readText()).startsWith('# `GPT` at `gpt.py:202`'));
    const block = layers.findIndex((l) => l.path === 'transformer.h');
    assert.strictEqual(layers[block]?.line, 92);
    await api.modelPanel.receive({ type: 'reveal', layer: block });
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.selection.active.line, 91);
  });
});
