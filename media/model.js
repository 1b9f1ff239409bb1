// @ts-check
// The "Explain model sizing" panel: draws the figures the extension sends (typed messages only) and sends back
// the inputs as the user types them; the extension checks them and says what is wrong with a field.
// Everything is built with DOM calls and textContent: no data ever becomes HTML. The form is built once and
// kept, so that typing in it is never interrupted by the figures redrawing around it.
(function () {
  const {
    vscode,
    el,
    field,
    table,
    section,
    link,
    header: pageHeader,
    copied: pageCopied,
    showErrors: pageErrors,
  } = window.attentionLensPage;
  const root = document.getElementById('root');
  const SIZES = [
    ['batch', 'batch size'],
    ['sequence', 'sequence length'],
  ];
  const FIELDS = ['batch', 'sequence', 'dtype', 'optimizer'];
  let form;
  let asked = false; // inputs sent and not answered yet: the next figures answer them

  // A figure: its amount in a unit people read, the exact digits on hover; or "not known" and why.
  function figure(f) {
    if (f.unknown !== undefined)
      return el(
        'span',
        { class: 'unknown' },
        el('strong', { text: 'not known' }),
        el('span', { class: 'muted', text: ` (${f.unknown})` }),
      );
    return el('span', { class: 'exact', title: `${f.amount.exact}`, text: f.amount.text });
  }

  function facts(pairs) {
    return el('dl', { class: 'facts' }, ...pairs.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', {}, v)]));
  }

  function send() {
    const value = (id) => field(id).value;
    asked = true;
    vscode.postMessage({
      type: 'inputs',
      inputs: {
        batch: value('batch'),
        sequence: value('sequence'),
        dtype: value('dtype'),
        optimizer: value('optimizer'),
      },
    });
  }

  function buildForm(d) {
    const f = el('form', { class: 'inputs', 'aria-label': 'What the figures are given for', novalidate: '' });
    const field = (name, label, control) =>
      f.append(
        el(
          'label',
          { for: name },
          el('span', { text: label }),
          control,
          el('small', { id: `${name}-error`, class: 'error', 'aria-live': 'polite' }),
        ),
      );
    for (const [name, label] of SIZES) {
      // Text, not type=number: the browser would turn "2.5x" into an empty value, and the message would be wrong.
      const input = el('input', {
        type: 'text',
        inputmode: 'numeric',
        id: name,
        autocomplete: 'off',
        'aria-describedby': `${name}-error`,
      });
      input.addEventListener('input', send);
      field(name, label, input);
    }
    const select = (id, options) => {
      const s = el(
        'select',
        { id, 'aria-describedby': `${id}-error` },
        ...options.map(([value, text]) => el('option', { value, text })),
      );
      s.addEventListener('change', send);
      return s;
    };
    field(
      'dtype',
      'dtype',
      select(
        'dtype',
        d.weights.map((w) => [w.dtype, w.dtype]),
      ),
    );
    field(
      'optimizer',
      'optimizer',
      select(
        'optimizer',
        d.training.map((t) => [t.id, t.optimizer]),
      ),
    );
    f.addEventListener('submit', (e) => e.preventDefault());
    return f;
  }

  /** The form shows the inputs in use, except in a field being typed in. */
  function fillForm(d) {
    for (const name of FIELDS) {
      const input = field(name);
      if (document.activeElement !== input || input.tagName === 'SELECT') input.value = String(d.inputs[name]);
    }
    if (asked) showErrors({});
    asked = false;
  }

  function showErrors(errors) {
    if (form) pageErrors(FIELDS, errors);
  }

  function header(d) {
    return pageHeader(d.name, link(d.where, 'Go to the model in its file'));
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
    return [
      el('p', {}, 'Total: ', figure(a.total)),
      table(['layer', 'kind', 'calls', 'kept', 'share', 'written at'], rows, [2, 3, 4], true),
    ];
  }

  function body(d) {
    const { batch, sequence } = d.inputs;
    const tokens = `${sequence.toLocaleString('en-US')} tokens`;
    return [
      section(
        'Parameters',
        table(
          ['', 'count', ''],
          d.parameters.map((p) => ({ cells: [p.label, p.count, p.note] })),
          [1],
        ),
      ),
      section(
        'Weights',
        table(
          ['dtype', 'a parameter', 'memory'],
          d.weights.map((w) => ({
            chosen: w.dtype === d.inputs.dtype,
            cells: [w.dtype, w.bytesEach, figure(w.bytes)],
          })),
          [2],
        ),
      ),
      section(
        'Training memory',
        el('p', { class: 'legend', text: 'Weights, gradients and optimizer state, before activations.' }),
        table(
          ['optimizer', 'bytes a parameter', 'memory'],
          d.training.map((t) => ({ chosen: t.chosen, cells: [t.optimizer, t.perParameter, figure(t.bytes)] })),
          [2],
        ),
      ),
      section(
        'KV cache',
        facts([
          ['a token', figure(d.kvCache.perToken)],
          [`for ${tokens}`, figure(d.kvCache.context)],
          ['of', d.kvCache.layers],
        ]),
      ),
      section(
        'FLOPs',
        facts([
          ['a token, forward', figure(d.flops.forwardPerToken)],
          ['a token, training', figure(d.flops.trainingPerToken)],
          [`a step of ${batch} × ${tokens}`, figure(d.flops.trainingStep)],
        ]),
      ),
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

  /** @param {MessageEvent<import('../src/vscode/webviewProtocol').ToModelWebview>} event */
  const receive = (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') return;
    if (message.type === 'invalid') {
      asked = false;
      showErrors(message.errors || {});
    } else if (message.type === 'copied') pageCopied(message.ok === true, 'The sizing');
    else if (message.type === 'model' || message.type === 'none') {
      if (message.type === 'model') vscode.setState({ target: message.target, inputs: message.data.inputs });
      render(message);
    }
  };
  window.addEventListener('message', receive);
  vscode.postMessage({ type: 'ready' });
})();
