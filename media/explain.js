// Draws the data the extension sends (typed messages only) and sends back the sizes the user edits.
// Everything is built with DOM calls and textContent: no data ever becomes HTML.
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  let current;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  function table(headers, rows, numeric) {
    const head = el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })));
    const body = rows.map((r) => el('tr', {}, ...r.map((c, i) => el('td', { text: c, class: numeric && numeric.includes(i) ? 'num' : '' }))));
    return el('table', {}, el('thead', {}, head), el('tbody', {}, ...body));
  }

  function section(title, ...children) {
    return el('section', {}, el('h2', { text: title }), ...children);
  }

  function inputs(values) {
    const form = el('form', { class: 'inputs', 'aria-label': 'Sizes for the FLOPs and memory' });
    const field = (name, label) => {
      const input = el('input', { type: 'number', min: '1', step: '1', id: name, value: String(values[name]) });
      return el('label', { for: name }, el('span', { text: label }), input);
    };
    const select = el('select', { id: 'dtype' }, ...['float32', 'bfloat16', 'float16', 'float64'].map((d) => {
      const o = el('option', { value: d, text: d });
      if (d === values.dtype) o.selected = true;
      return o;
    }));
    form.append(field('batch', 'batch N'), field('queryLength', 'query length L'), field('keyLength', 'key length S'), el('label', { for: 'dtype' }, el('span', { text: 'dtype' }), select));
    form.addEventListener('change', () => {
      const read = (id) => Number(document.getElementById(id).value);
      const next = { batch: read('batch'), queryLength: read('queryLength'), keyLength: read('keyLength'), dtype: select.value };
      if ([next.batch, next.queryLength, next.keyLength].every((n) => Number.isInteger(n) && n >= 1)) vscode.postMessage({ type: 'inputs', inputs: next });
    });
    form.addEventListener('submit', (e) => e.preventDefault());
    return form;
  }

  function diagram(steps) {
    const flow = el('ol', { class: 'flow', 'aria-label': 'Data flow' });
    steps.forEach((s) => flow.append(el('li', { class: s.parameters ? 'step weights' : 'step' }, el('strong', { text: s.name }), el('code', { text: s.shape }))));
    return flow;
  }

  function render(message) {
    root.replaceChildren();
    if (message.type === 'none') {
      root.append(el('p', { class: 'muted', text: message.reason }));
      return;
    }
    const d = message.data;
    const copy = el('button', { type: 'button', text: 'Copy as Markdown' });
    copy.addEventListener('click', () => vscode.postMessage({ type: 'copy' }));
    root.append(
      el('header', {}, el('h1', { text: d.title }), copy),
      section('Settings', table(['setting', 'value'], d.settings)),
      section('Sizes', inputs(d.inputs)),
      section('Data flow', diagram(d.steps), el('p', { class: 'legend', text: 'Outlined steps multiply by trained weights; the others hold no parameters.' })),
      section('Each step', table(['step', 'what happens', 'shape', 'FLOPs', 'kept for backward', 'numbers kept'], d.steps.map((s) => [s.name, s.formula, s.shape, s.flops, s.saved, s.savedElements]), [3, 5]),
        el('p', { text: `Total: ${d.totalFlops} FLOPs. The score matrix N·h·L·S holds ${d.scores.elements} numbers (${d.scores.bytes} bytes). Autograd keeps ${d.savedElements} numbers (${d.savedBytes} bytes) of this layer for the backward pass.` })),
      section('Parameters', table(['tensor', 'role', 'shape', 'count', 'bytes'], [...d.parameters.map((p) => [p.name, p.role, p.shape, p.count, p.bytes]), ['total', '', '', d.totalParameters, d.totalBytes]], [3, 4]),
        el('p', { text: `No parameters in ${d.withoutParameters.join(', ')}.` })),
      d.lowRank ? section('Why W_Q and W_K are two matrices', el('p', { text: d.lowRank.text }),
        table(['per head', 'merged W_Q·W_Kᵀ', 'W_Q and W_K apart'], [['parameters', d.lowRank.merged, d.lowRank.separate], ['FLOPs to apply', d.lowRank.mergedFlops, d.lowRank.separateFlops], ['rank', `≤ ${d.lowRank.rank}`, `≤ ${d.lowRank.rank}`]], [1, 2])) : undefined,
      section('Notes', el('ul', {}, ...d.notes.map((n) => el('li', { text: n })))),
    );
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || (message.type !== 'explain' && message.type !== 'none')) return;
    current = message;
    if (message.type === 'explain') vscode.setState({ target: message.target, inputs: message.data.inputs });
    render(current);
  });
  vscode.postMessage({ type: 'ready' });
})();
