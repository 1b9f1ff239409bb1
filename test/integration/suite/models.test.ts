import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, hoverText, lensTitles, openFile, poll, positionOf } from './helpers';

// gpt.py is test/fixtures/models/pytorch/gpt.py (GPT-2 small), copied in by the runner: its classes take a
// config without a default, and the file builds `model = GPT(GPTConfig())` on line 202. gpt_instance.py
// builds `model = GPT(GPTConfig(n_layer=24))` from it. Totals from PyTorch: GPT(GPTConfig()) 124,439,808;
// its Block 7,087,872; the 24-layer instance 209,494,272 (sum(p.numel() for p in model.parameters())).
suite('model classes: lens, hover, status bar', () => {
  let doc: vscode.TextDocument;
  let api: { modelStatus(): string | undefined };
  suiteSetup(async () => {
    doc = await openFile('gpt.py');
    api = (await activateExtension()).exports as typeof api;
  });

  test('CodeLens on the class line: the total the file builds it with, and its stack of blocks', async () => {
    // gpt_instance.py, which imports it, builds it with other sizes: a configuration of the class too, found
    // by the analysis after the first.
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('106:') && x.includes('configurations')),
    );
    assert.ok(
      titles.includes('106: 124,439,808 params (124.4 M) · 12 × Block · as built on line 202 · 2 configurations'),
      titles.join(' | '),
    );
    assert.ok(titles.includes('91: 7,087,872 params (7.1 M) · in GPT (line 202)'), titles.join(' | '));
    assert.ok(titles.includes('201: GPT: 124,439,808 params (124.4 M) · 12 × Block'), titles.join(' | '));
    assert.ok(titles.includes('35: 1,771,776 params · 768 → 2,304 · in GPT (line 202)'), titles.join(' | '));
  });

  test('CodeLens on a model built with explicit arguments, from a class of another file', async () => {
    const instance = await openFile('gpt_instance.py');
    const titles = await poll(
      () => lensTitles(instance.uri),
      (t) => t.length > 0,
    );
    assert.deepStrictEqual(titles, ['3: GPT: 209,494,272 params (209.5 M) · 24 × Block']);
  });

  test('hover on the class: children with their share, and memory', async () => {
    const text = await hoverText(doc.uri, positionOf(doc, 'class GPT(', 7));
    assert.ok(text.includes('**GPT**: 124,439,808 parameters (124.4 M), as built in GPT (line 202)'), text);
    assert.ok(text.includes('Tied: `transformer.wte.weight` and `lm_head.weight` are one parameter'), text);
    assert.match(text, /transformer.*ModuleDict.*124,439,808/, text);
    assert.match(text, /lm_head.*Linear.*38,597,376.*31\.0 %/, text);
    assert.ok(text.includes('474.7 MiB in fp32'), text);
    assert.ok(text.includes('Training with Adam in fp32: 1.85 GiB'), text);
  });

  test('hover on a layer whose sizes come from the model the file builds: the formula and that model', async () => {
    const text = await hoverText(doc.uri, positionOf(doc, 'nn.Linear(config.n_embd, 3 * config.n_embd', 3));
    assert.ok(text.includes('**nn.Linear**: 1,771,776 parameters'), text);
    assert.ok(text.includes('in GPT (line 202) via Block ×12 via CausalSelfAttention: 1,771,776'), text);
    assert.ok(text.includes('3·config.n_embd² + [config.bias]·3·config.n_embd'), text);
  });

  test('status bar: the total of the class under the cursor', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const inBlock = positionOf(doc, 'x = x + self.attn(');
    editor.selection = new vscode.Selection(inBlock, inBlock);
    assert.strictEqual(
      await poll(
        () => api.modelStatus(),
        (t) => t?.includes('Block') ?? false,
      ),
      '$(symbol-class) Block: 7,087,872 params',
    );
    const outside = positionOf(doc, '@dataclass');
    editor.selection = new vscode.Selection(outside, outside);
    assert.strictEqual(
      await poll(
        () => api.modelStatus(),
        (t) => t === undefined,
      ),
      undefined,
    );
  });
});
