import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, hoverText, lensTitles, openFile, ours, poll, positionOf } from './helpers';

// test/integration/workspace/mnist.ts, line 3: model.add(tf.layers.dense({units: 10, inputShape: [784]}));
suite('TypeScript file (TensorFlow.js)', () => {
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    doc = await openFile('mnist.ts');
    assert.strictEqual(doc.languageId, 'typescript');
    await activateExtension();
  });

  test('CodeLens on tf.layers.dense({units: 10, inputShape: [784]})', async () => {
    // The model's lens (what countParams() reports) on the tf.sequential() line, the layer's on its own.
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.length > 1,
    );
    assert.deepStrictEqual(titles, ['2: Sequential: 7,850 params (7.8 K)', '3: 7,850 params · 784 → 10']);
  });

  test('hover on dense shows 7,850', async () => {
    // The built-in TypeScript hover answers here too; only ours has the count.
    const text = await poll(
      () => hoverText(doc.uri, positionOf(doc, 'dense', 2)),
      (t) => t.includes('7,850'),
    );
    assert.ok(text.includes('7,850'), `hover lacks 7,850:\n${text}`);
  });

  test('no shape diagnostics on a valid model', () => {
    assert.deepStrictEqual(
      ours(doc.uri).map((d) => d.message),
      [],
    );
  });
});
