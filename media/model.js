// The "Explain model sizing" panel: draws the figures the extension sends (typed messages only) and sends back
// the inputs as the user types them; the extension checks them and says what is wrong with a field.
// Everything is built with DOM calls and textContent: no data ever becomes HTML. The form is built once and
// kept, so that typing in it is never interrupted by the figures redrawing around it.
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  const SIZES = [['batch', 'batch size'], ['sequence', 'sequence length']];
  const FIELDS = ['batch', 'sequence', 'dtype', 'optimizer'];
  let form;
  let asked = false; // inputs sent and not answered yet: the next figures answer them
  let copyTimer;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== undefined && c !== null) node.append(c);
    return node;
  }

  // A figure: its amount in a unit people read, the exact digits on hover; or "not known" and why.
  function figure(f) {
    if (f.unknown !== undefined) return el('span', { class: 'unknown' }, el('strong', { text: 'not known' }), el('span', { class: 'muted', text: ` (${f.unknown})` }));
    return el('span', { class: 'exact', title: `${f.amount.exact}`, text: f.amount.text });
  }

  // Each cell is a node or text; each carries its column's name, which the narrow layout shows beside it.
  function table(headers, rows, numeric, wide) {
    const head = el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })));
    const body = rows.map((r) => el('tr', r.chosen ? { class: 'chosen' } : {}, ...r.cells.map((c, i) => {
      const attrs = { 'data-label': headers[i], class: numeric.includes(i) ? 'num' : '' };
      return typeof c === 'string' ? el('td', { ...attrs, text: c }) : el('td', attrs, c);
    })));
    return el('table', { class: wide ? 'wide' : '' }, el('thead', {}, head), el('tbody', {}, ...body));
  }

  function section(title, ...children) {
    return el('section', {}, el('h2', { text: title }), ...children);
  }

  function facts(pairs) {
    return el('dl', { class: 'facts' }, ...pairs.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', {}, v)]));
  }

  function link(text, title, layer) {
    const a = el('a', { href: '#', title, text });
    a.addEventListener('click', (e) => {
      e.preventDefault();
      vscode.postMessage(layer === undefined ? { type: 'reveal' } : { type: 'reveal', layer });
    });
    return a;
  }

  function send() {
    const value = (id) => document.getElementById(id).value;
    asked = true;
    vscode.postMessage({ type: 'inputs', inputs: { batch: value('batch'), sequence: value('sequence'), dtype: value('dtype'), optimizer: value('optimizer') } });
  }

  function buildForm(d) {
    const f = el('form', { class: 'inputs', 'aria-label': 'What the figures are given for', novalidate: '' });
    const field = (name, label, control) => f.append(el('label', { for: name }, el('span', { text: label }), control, el('small', { id: `${name}-error`, class: 'error', 'aria-live': 'polite' })));
    for (const [name, label] of SIZES) {
      // Text, not type=number: the browser would turn "2.5x" into an empty value, and the message would be wrong.
      const input = el('input', { type: 'text', inputmode: 'numeric', id: name, autocomplete: 'off', 'aria-describedby': `${name}-error` });
      input.addEventListener('input', send);
      field(name, label, input);
    }
    const select = (id, options) => {
      const s = el('select', { id, 'aria-describedby': `${id}-error` }, ...options.map(([value, text]) => el('option', { value, text })));
      s.addEventListener('change', send);
      return s;
    };
    field('dtype', 'dtype', select('dtype', d.weights.map((w) => [w.dtype, w.dtype])));
    field('optimizer', 'optimizer', select('optimizer', d.training.map((t) => [t.id, t.optimizer])));
    f.addEventListener('submit', (e) => e.preventDefault());
    return f;
  }

  /** The form shows the inputs in use, except in a field being typed in. */
  function fillForm(d) {
    for (const name of FIELDS) {
      const input = document.getElementById(name);
      if (document.activeElement !== input || input.tagName === 'SELECT') input.value = String(d.inputs[name]);
    }
    if (asked) showErrors({});
    asked = false;
  }

  function showErrors(errors) {
    if (!form) return;
    for (const name of FIELDS) {
      const input = document.getElementById(name);
      document.getElementById(`${name}-error`).textContent = errors[name] || '';
      if (errors[name]) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  function header(d) {
    const copy = el('button', { type: 'button', id: 'copy', text: 'Copy as Markdown' });
    copy.addEventListener('click', () => vscode.postMessage({ type: 'copy' }));
    return el('header', {}, el('h1', {}, `${d.name} at `, link(d.where, 'Go to the model in its file')), el('div', { class: 'actions' }, copy, el('span', { id: 'copy-status', role: 'status' })));
  }

  function copied(ok) {
    const button = document.getElementById('copy');
    const status = document.getElementById('copy-status');
    if (!button) return;
    button.textContent = ok ? 'Copied ✓' : 'Copy failed';
    status.textContent = ok ? 'The sizing is on the clipboard as Markdown.' : 'The clipboard could not be written.';
    clearTimeout(copyTimer);
    copyTimer = setTimeout(() => {
      button.textContent = 'Copy as Markdown';
      status.textContent = '';
    }, 2500);
  }

  function activations(a) {
    if (a.total.unknown !== undefined) return [el('p', {}, 'Total: ', figure(a.total))];
    const rows = a.layers.map((l, i) => ({
      cells: [
        el('code', { text: l.path }),
        l.kind,
        l.calls > 1 ? `× ${l.calls}` : '1',
        el('span', { class: 'exact', title: l.bytes.exact, text: l.bytes.text }),
        l.share,
        l.line === undefined ? '' : link(`line ${l.line}`, `Go to ${l.path} in its file`, i),
      ],
    }));
    return [el('p', {}, 'Total: ', figure(a.total)), table(['layer', 'kind', 'calls', 'kept', 'share', 'written at'], rows, [2, 3, 4], true)];
  }

  function body(d) {
    const { batch, sequence } = d.inputs;
    const tokens = `${sequence.toLocaleString('en-US')} tokens`;
    return [
      section('Parameters', table(['', 'count', ''], d.parameters.map((p) => ({ cells: [p.label, p.count, p.note] })), [1])),
      section('Weights', table(['dtype', 'a parameter', 'memory'], d.weights.map((w) => ({ chosen: w.dtype === d.inputs.dtype, cells: [w.dtype, w.bytesEach, figure(w.bytes)] })), [2])),
      section('Training memory', el('p', { class: 'legend', text: 'Weights, gradients and optimizer state, before activations.' }),
        table(['optimizer', 'bytes a parameter', 'memory'], d.training.map((t) => ({ chosen: t.chosen, cells: [t.optimizer, t.perParameter, figure(t.bytes)] })), [2])),
      section('KV cache', facts([['a token', figure(d.kvCache.perToken)], [`for ${tokens}`, figure(d.kvCache.context)], ['of', d.kvCache.layers]])),
      section('FLOPs', facts([['a token, forward', figure(d.flops.forwardPerToken)], ['a token, training', figure(d.flops.trainingPerToken)], [`a step of ${batch} × ${tokens}`, figure(d.flops.trainingStep)]])),
      section(`Activations kept for backward (${batch} × ${tokens}, ${d.inputs.dtype})`, ...activations(d.activations)),
      section('What the figures leave out', el('ul', {}, ...d.leavesOut.map((n) => el('li', { text: n })))),
    ];
  }

  function render(message) {
    if (message.type === 'none') {
      form = undefined;
      root.replaceChildren(el('p', { class: 'muted', text: message.reason }));
      return;
    }
    const d = message.data;
    if (!form) {
      form = buildForm(d);
      root.replaceChildren(el('header'), section('Sizes', form), el('div', { id: 'figures' }));
    }
    root.firstElementChild.replaceWith(header(d));
    document.getElementById('figures').replaceChildren(...body(d));
    fillForm(d);
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') return;
    if (message.type === 'invalid') {
      asked = false;
      showErrors(message.errors || {});
    } else if (message.type === 'copied') copied(message.ok === true);
    else if (message.type === 'model' || message.type === 'none') {
      if (message.type === 'model') vscode.setState({ target: message.target, inputs: message.data.inputs });
      render(message);
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
