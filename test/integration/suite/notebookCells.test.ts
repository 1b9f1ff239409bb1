import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  activateExtension,
  codeOf,
  hoverText,
  lensTitles,
  ours,
  poll,
  positionOf,
  waitForDiagnostics,
  workspaceUri,
} from './helpers';

// test/integration/workspace/cells.ipynb: three code cells (and a markdown cell between the first two).
//   cell 1  0 import torch.nn as nn          cell 2  0 proj = nn.Linear(D, 1024)          cell 3  0 head = nn.Linear(D, 10)
//          1 D = 512                                1 bad = nn.MultiheadAttention(D, 10)         1 worse = nn.MultiheadAttention(768, 7)
//          2 attn = nn.MultiheadAttention(D, 8)
// Each cell sees the cells above it (D), and shows only its own results, on its own lines.
suite('Jupyter notebook: three code cells', () => {
  let cells: vscode.TextDocument[];
  suiteSetup(async () => {
    const nb = await vscode.workspace.openNotebookDocument(workspaceUri('cells.ipynb'));
    await vscode.window.showNotebookDocument(nb);
    await activateExtension();
    cells = nb
      .getCells()
      .filter((c) => c.kind === vscode.NotebookCellKind.Code)
      .map((c) => c.document);
    assert.strictEqual(cells.length, 3);
  });

  test('lenses in every cell, on the cell’s own lines', async () => {
    const expected = [
      ['2: 1,050,624 params · 8 heads × 64'],
      ['0: 525,312', '1: ✖ PyTorch would not build this MultiheadAttention · heads-divisibility'],
      ['0: 5,130', '1: ✖ PyTorch would not build this MultiheadAttention · heads-divisibility'],
    ];
    for (const [i, cell] of cells.entries()) {
      const titles = await poll(
        () => lensTitles(cell.uri),
        (t) => t.length >= expected[i].length,
      );
      assert.deepStrictEqual(
        titles.map((t, j) => (t.startsWith(expected[i][j]) ? expected[i][j] : t)),
        expected[i],
        `cell ${i + 1}: ${titles.join(' | ')}`,
      );
    }
  });

  test('hovers in every cell', async () => {
    const at = [
      positionOf(cells[0], 'MultiheadAttention', 3),
      positionOf(cells[1], 'Linear', 2),
      positionOf(cells[2], 'Linear', 2),
    ];
    const counts = ['1,050,624', '525,312', '5,130'];
    for (const [i, cell] of cells.entries()) {
      const text = await poll(
        () => hoverText(cell.uri, at[i]),
        (t) => t.includes(counts[i]),
      );
      assert.ok(text.includes(counts[i]), `cell ${i + 1}: ${text}`);
    }
  });

  test('diagnostics in every cell that has an error, on the cell’s own line', async () => {
    await poll(
      () => lensTitles(cells[0].uri),
      (t) => t.length > 0,
    );
    assert.deepStrictEqual(ours(cells[0].uri), []);
    for (const cell of cells.slice(1)) {
      const diags = await waitForDiagnostics(cell.uri, (ds) => ds.length > 0);
      assert.deepStrictEqual(
        diags.map((d) => `${d.range.start.line} ${codeOf(d)}`),
        ['1 heads-divisibility'],
      );
    }
  });

  test('editing the first cell updates the cells below it', async () => {
    const first = cells[0];
    const edit = (from: string, to: string) => {
      const e = new vscode.WorkspaceEdit();
      const start = positionOf(first, from);
      e.replace(first.uri, new vscode.Range(start, start.translate(0, from.length)), to);
      return vscode.workspace.applyEdit(e);
    };
    assert.ok(await edit('D = 512', 'D = 256'));
    try {
      const third = await poll(
        () => lensTitles(cells[2].uri),
        (t) => t.some((l) => l.startsWith('0: 2,570')),
      );
      assert.ok(
        third.some((l) => l.startsWith('0: 2,570')),
        `cell 3 kept the old size: ${third.join(' | ')}`,
      );
      const second = await poll(
        () => lensTitles(cells[1].uri),
        (t) => t.some((l) => l.startsWith('0: 263,168')),
      );
      assert.ok(
        second.some((l) => l.startsWith('0: 263,168')),
        `cell 2 kept the old size: ${second.join(' | ')}`,
      );
    } finally {
      assert.ok(await edit('D = 256', 'D = 512'));
      // The text is as on disk again; revert clears the dirty flag so nothing asks to save at exit.
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});

// test/integration/workspace/later_cells.ipynb: cell 1 defines Head(d) (its Linear(d, d) on line 5), cell 2
// builds Head(512) and Head(1024). As in a .py file, the class's layer gets the sizes the cell below builds.
suite('Jupyter notebook: a class built in a later cell', () => {
  test('the class cell shows the sizes of the models built below it, as the same code in a .py file does', async () => {
    const nb = await vscode.workspace.openNotebookDocument(workspaceUri('later_cells.ipynb'));
    await vscode.window.showNotebookDocument(nb);
    await activateExtension();
    const [defining, building] = nb
      .getCells()
      .filter((c) => c.kind === vscode.NotebookCellKind.Code)
      .map((c) => c.document);
    const expected = '5: 2 sizes: 262,656 … 1,049,600 params · d → d';
    const titles = await poll(
      () => lensTitles(defining.uri),
      (t) => t.includes(expected),
    );
    assert.ok(titles.includes(expected), titles.join(' | '));
    const models = await poll(
      () => lensTitles(building.uri),
      (t) => t.length >= 2,
    );
    assert.deepStrictEqual(
      models.map((t) => t.split(' params')[0]),
      ['0: Head: 262,656', '1: Head: 1,049,600'],
    );
  });
});
