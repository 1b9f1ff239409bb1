import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, hoverText, lensTitles, openFile, poll, positionOf, workspaceUri } from './helpers';

// Files crafted to exhaust the analysis: the extension host must keep answering, and the layers beside them
// keep their counts (nn.Linear(8, 4): 36 parameters, nn.Linear(20, 4): 84).
suite('hostile files leave the extension host answering', () => {
  test('x = [] * 10**9 and a string doubled forty times: the lens and the hover still come', async () => {
    const uri = workspaceUri('hostile.py');
    const text = [
      'import torch.nn as nn',
      'x = [] * 10**9',
      's = "ab"',
      'for _ in range(40):',
      '    s = s + s',
      'u = s.upper().split()',
      'fc = nn.Linear(8, 4)',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    const doc = await openFile('hostile.py');
    await activateExtension();
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('6:')),
    );
    assert.ok(
      titles.some((x) => x.startsWith('6: 36 params')),
      titles.join(' | '),
    );
    assert.ok((await hoverText(doc.uri, positionOf(doc, 'nn.Linear(8', 3))).includes('36'));
  });

  test('a file at the end of a 100-file import chain gets its count', async () => {
    await vscode.workspace.fs.writeFile(workspaceUri('chain/m0.py'), Buffer.from('W0 = 4\n'));
    for (let i = 1; i < 100; i++)
      await vscode.workspace.fs.writeFile(
        workspaceUri(`chain/m${i}.py`),
        Buffer.from(`from m${i - 1} import W${i - 1}\nW${i} = W${i - 1}\n`),
      );
    await vscode.workspace.fs.writeFile(
      workspaceUri('chain/model.py'),
      Buffer.from('import torch.nn as nn\nfrom m99 import W99\nfc = nn.Linear(W99 * 5, 4)\n'),
    );
    const doc = await openFile('chain/model.py');
    const titles = await poll(
      () => lensTitles(doc.uri),
      (t) => t.some((x) => x.startsWith('2: 84 params')),
    );
    assert.ok(
      titles.some((x) => x.startsWith('2: 84 params')),
      titles.join(' | '),
    );
    assert.ok((await hoverText(doc.uri, positionOf(doc, 'nn.Linear', 3))).includes('84'));
  });
});
