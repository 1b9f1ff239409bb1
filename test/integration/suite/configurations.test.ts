import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeLenses,
  hoverMarkdown,
  hoverText,
  lensTitles,
  openFile,
  poll,
  positionOf,
} from './helpers';

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
    const links = await hoverMarkdown(doc.uri, positionOf(doc, 'class Transformer(', 6));
    assert.ok(links.includes('[Choose configuration](command:attentionLens.chooseConfiguration?'), links);
  });
});

// The choice is the user's: clicking GPT's class lens lists its configurations, and the one picked is what GPT,
// its Block and their layers show (gpt-small: 3 blocks of width 48, 67,104 in all, as PyTorch builds it), until
// the automatic choice is picked again.
suite('choosing the configuration a class shows', () => {
  test('the class lens opens the choice; the class and its layers follow the one picked, quick pick or argument', async () => {
    const doc = await openFile('presets.py');
    await activateExtension();
    const gpt = await poll(
      async () => (await codeLenses(doc.uri)).find((l) => l.range.start.line === 25),
      (l) => l?.command?.title.startsWith('23,168 params') === true,
    );
    assert.strictEqual(gpt?.command?.command, 'attentionLens.chooseConfiguration');
    assert.deepStrictEqual(gpt.command.arguments, [[doc.uri.toString(), 25, 6]]);
    await vscode.window.showTextDocument(doc);
    // The quick pick lists Automatic, then GPT(GPTConfig()) and the three presets: the fourth item is gpt-small.
    const choosing = vscode.commands.executeCommand<string | undefined>(gpt.command.command, ...gpt.command.arguments);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.strictEqual(await choosing, "GPT.from_pretrained('gpt-small')");
    const small = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('25: 67,104 params')),
    );
    for (const expected of [
      "25: 67,104 params (67.1 K) · 3 × Block · in GPT.from_pretrained('gpt-small') · 4 configurations",
      "17: 18,528 params (18.5 K) · in GPT.from_pretrained('gpt-small') · 4 configurations",
    ])
      assert.ok(small.includes(expected), `${expected}\nnot among:\n${small.join('\n')}`);
    assert.ok(
      small.some((t) => t.startsWith('21: 9,216 params · 4 heads × 12')),
      small.join('\n'),
    );
    const hover = await hoverText(doc.uri, positionOf(doc, 'class GPT(', 6));
    assert.ok(hover.includes("- 67,104 in `GPT.from_pretrained('gpt-small')` (shown)"), hover);

    // Sizes of one's own, as an expression (the quick pick's last item asks for it): 5 blocks of width 64,
    // 179,328 in all, as PyTorch builds GPT(GPTConfig(n_layer=5, n_embd=64)) (pytorch-expressions.json own).
    assert.strictEqual(
      await vscode.commands.executeCommand(
        'attentionLens.chooseConfiguration',
        [doc.uri.toString(), 25, 6],
        'GPT(GPTConfig(n_layer=5, n_embd=64))',
      ),
      'GPT(GPTConfig(n_layer=5, n_embd=64))',
    );
    const own = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('25: 179,328 params')),
    );
    assert.ok(
      own.includes(
        '25: 179,328 params (179.3 K) · 5 × Block · in GPT(GPTConfig(n_layer=5, n_embd=64)) · 5 configurations',
      ),
      own.join('\n'),
    );
    assert.ok(
      own.some((t) => t.startsWith('21: 16,640 params · 4 heads × 16')),
      own.join('\n'),
    );
    // Nothing is shown past the file's last line.
    assert.ok(
      own.every((t) => Number(t.split(':')[0]) < doc.lineCount),
      own.join('\n'),
    );

    // Picked by argument, as a keybinding would: back to what the file shows by itself.
    assert.strictEqual(
      await vscode.commands.executeCommand('attentionLens.chooseConfiguration', [doc.uri.toString(), 25, 6], ''),
      '',
    );
    const automatic = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('25: 23,168 params')),
    );
    assert.ok(
      automatic.some((t) => t.startsWith('21: 4,224 params · 4 heads × 8')),
      automatic.join('\n'),
    );
  });

  test('configurations named in the settings are listed under their names, and shown once chosen', async () => {
    const doc = await openFile('presets.py');
    await activateExtension();
    const settings = vscode.workspace.getConfiguration('attentionLens');
    await settings.update(
      'configurations',
      { GPT: { wide: 'GPT(GPTConfig(n_layer=5, n_embd=64))' } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((x) => x.startsWith('25: 23,168 params') && x.endsWith('· 5 configurations')),
      );
      assert.strictEqual(
        await vscode.commands.executeCommand('attentionLens.chooseConfiguration', [doc.uri.toString(), 25, 6], 'wide'),
        'wide',
      );
      // As PyTorch builds GPT(GPTConfig(n_layer=5, n_embd=64)): 179,328 (pytorch-expressions.json own).
      const wide = await poll(
        () => lensTitles(doc.uri),
        (t) => t.some((x) => x.startsWith('25: 179,328 params')),
      );
      assert.ok(
        wide.includes('25: 179,328 params (179.3 K) · 5 × Block · in wide · 5 configurations'),
        wide.join('\n'),
      );
    } finally {
      await vscode.commands.executeCommand('attentionLens.chooseConfiguration', [doc.uri.toString(), 25, 6], '');
      await settings.update('configurations', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
