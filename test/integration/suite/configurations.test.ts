import * as assert from 'assert';
import { activateExtension, hoverText, lensTitles, openFile, poll, positionOf } from './helpers';

// config_defaults.py is test/fixtures/models/pytorch/config_defaults.py, copied in by the runner: its classes
// take a configuration and the file builds none of them. Totals from PyTorch (pytorch-layers.json): GPT(GPTConfig())
// 30,592, Block(GPTConfig()) 12,704, FeedForward(ModelArgs()) 18,432, Classifier(head=HeadConfig()) 1,325.
suite('models counted with the configuration they take', () => {
  test('on first open, each class says which configuration its count is for, and its layers follow', async () => {
    const doc = await openFile('config_defaults.py');
    await activateExtension();
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('49:')),
    );
    for (const expected of [
      '49: 30,592 params (30.6 K) · 2 × Block · as GPT(GPTConfig())',
      '52: 3,072 params · 96 × 32 · in GPT(GPTConfig())',
      '39: 12,704 params (12.7 K) · as Block(GPTConfig())',
      // build_all() builds these with other sizes too.
      '20: 4,224 params (4.2 K) · as SelfAttention(GPTConfig()) · 2 configurations',
      '72: 18,432 params (18.4 K) · as FeedForward(ModelArgs()) · 2 configurations',
      '87: 1,325 params (1.3 K) · 2 × Linear · as Classifier(head=HeadConfig()) · 2 configurations',
      // Two configurations hold Projection's fields: it is counted only as build_all() builds it.
      '107: 144 params (144) · in build_all()',
    ])
      assert.ok(titles.includes(expected), `${expected}\nnot among:\n${titles.join('\n')}`);
    const hover = await hoverText(doc.uri, positionOf(doc, 'class GPT(', 6));
    assert.ok(
      hover.includes(
        "**GPT**: 30,592 parameters (30.6 K), as `GPT(GPTConfig())` builds it, with its configuration's defaults",
      ),
      hover,
    );
  });

  // presets.py: nanoGPT's from_pretrained table, gpt-fast's from_name, a builder comparing names. Totals from
  // PyTorch (pytorch-layers.json presets).
  test('preset tables: the class names how many configurations it has, and lists each with its total', async () => {
    const doc = await openFile('presets.py');
    await activateExtension();
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('89:')),
    );
    for (const expected of [
      '25: 23,168 params (23.2 K) · 2 × Block · as GPT(GPTConfig()) · 4 configurations',
      "89: 1,258 params (1.3 K) · in build_encoder('tiny') · 2 configurations",
      "92: 1,088 params · 2 heads × 8 · in build_encoder('tiny')",
    ])
      assert.ok(titles.includes(expected), `${expected}\nnot among:\n${titles.join('\n')}`);
    const hover = await hoverText(doc.uri, positionOf(doc, 'class Transformer(', 6));
    for (const line of [
      '- 52,352 in `Transformer(ModelArgs())` (shown)',
      "- 7,744 in `Transformer.from_name('XS')`",
      "- 225,984 in `Transformer.from_name('M')`",
    ])
      assert.ok(hover.includes(line), hover);
  });
});
