const { Grammars } = require('./out/src/syntax/parser.js');
const { fsWasmLoader } = require('./out/src/syntax/fsLoader.js');
const { DocumentAnalyzer } = require('./out/src/syntax/documentAnalyzer.js');
(async () => {
  const g = await Grammars.load(fsWasmLoader);
  const head = 'import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n';
  const tail = '        self.fc = nn.Linear(4, 4)\n';
  const n = 4000;
  const cases = {
    comments: head + '        # self.x = nn.Linear(3, 3)\n'.repeat(n) + tail,
    mixed: head + Array.from({length:n},(_,i)=>' '.repeat(i%12)+'# c\n').join('') + tail,
    alternating: head + '        # c\n\n'.repeat(n) + tail,
    afterDedent: 'import torch.nn as nn\nif x:\n    pass\n' + '    # c\n'.repeat(n) + 'fc = nn.Linear(2, 2)\n',
    docstring: head + '        """\n' + '        # c\n'.repeat(n) + '        """\n' + tail,
    docstringQuote: head + '        """\n' + '        # c """ x = (\n'.repeat(n) + '        """\n' + tail,
    crlf: (head + '        # c\n'.repeat(n) + tail).replace(/\n/g, '\r\n'),
  };
  for (const [k, t] of Object.entries(cases)) {
    const a = new DocumentAnalyzer(g, 'python');
    const s = performance.now();
    const r = a.update(t);
    console.log(k, (performance.now() - s).toFixed(0), 'ms', r ? r.layers.map(l => l.layer.params?.constant).join(',') : 'NONE');
    // incremental: add a comment line in the middle then a code line
    const at = t.indexOf('# c', t.length / 2);
    if (at > 0) {
      const t2 = t.slice(0, at) + 'x' + t.slice(at);
      const s2 = performance.now();
      const r2 = a.update(t2, [{ rangeOffset: at, rangeLength: 0, text: 'x' }]);
      const fresh = new DocumentAnalyzer(g, 'python').update(t2);
      console.log('  edit', (performance.now() - s2).toFixed(0), 'ms', r2 ? r2.layers.length : 'NONE', fresh ? fresh.layers.length : 'NONE');
    }
    a.dispose();
  }
})();
