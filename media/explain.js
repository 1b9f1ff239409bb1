// @ts-check
// Draws the data the extension sends (typed messages only) and sends back the sizes as the user types them;
// the extension checks them and says what is wrong with a field. Everything is built with DOM calls and
// textContent: no data ever becomes HTML. The sizes form is built once and kept, so that typing in it is
// never interrupted by the walkthrough redrawing around it.
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
  const FIELDS = [
    ['batch', 'batch N'],
    ['queryLength', 'query length L'],
    ['keyLength', 'key length S'],
  ];
  let form; // the sizes form, once built
  let asked = false; // sizes sent and not answered yet: the next walkthrough answers them

  const amount = (a, unit) =>
    a.text.startsWith(a.exact) ? { text: a.text } : { text: a.text, title: `${a.exact} ${unit}` };

  function send() {
    const value = (id) => field(id).value;
    const inputs = {
      batch: value('batch'),
      queryLength: value('queryLength'),
      keyLength: value('keyLength'),
      dtype: value('dtype'),
      selfAttention: field('selfAttention').checked,
    };
    asked = true;
    vscode.postMessage({ type: 'inputs', inputs });
  }

  function buildForm() {
    const f = el('form', { class: 'inputs', 'aria-label': 'Sizes for the FLOPs and memory', novalidate: '' });
    for (const [name, label] of FIELDS) {
      // Text, not type=number: the browser would turn "2.5x" into an empty value, and the message would be wrong.
      const input = el('input', {
        type: 'text',
        inputmode: 'numeric',
        id: name,
        autocomplete: 'off',
        'aria-describedby': `${name}-error`,
      });
      input.addEventListener('input', send);
      f.append(
        el(
          'label',
          { for: name },
          el('span', { text: label }),
          input,
          el('small', { id: `${name}-error`, class: 'error', 'aria-live': 'polite' }),
        ),
      );
    }
    const select = el(
      'select',
      { id: 'dtype', 'aria-describedby': 'dtype-error' },
      ...['float32', 'bfloat16', 'float16', 'float64'].map((d) => el('option', { value: d, text: d })),
    );
    select.addEventListener('change', send);
    f.append(
      el(
        'label',
        { for: 'dtype' },
        el('span', { text: 'dtype' }),
        select,
        el('small', { id: 'dtype-error', class: 'error', 'aria-live': 'polite' }),
      ),
    );
    const self = el('input', { type: 'checkbox', id: 'selfAttention' });
    self.addEventListener('change', send);
    f.append(
      el(
        'label',
        { for: 'selfAttention', class: 'check' },
        self,
        el('span', { text: 'one input X for Q, K and V (self-attention)' }),
      ),
    );
    f.addEventListener('submit', (e) => e.preventDefault());
    return f;
  }

  /** The form shows the sizes in use, except in a field being typed in. */
  function fillForm(d) {
    for (const [name] of FIELDS) {
      const input = field(name);
      if (document.activeElement !== input) input.value = String(d.inputs[name]);
    }
    const key = field('keyLength');
    key.disabled = d.selfAttention.on;
    if (d.selfAttention.on) key.value = String(d.inputs.queryLength);
    field('dtype').value = d.inputs.dtype;
    const self = field('selfAttention');
    self.checked = d.selfAttention.on;
    self.disabled = !d.selfAttention.possible;
    // Sizes the extension took leave no error to show; a walkthrough redrawn after an edit of the source keeps them.
    if (asked) showErrors({});
    asked = false;
  }

  function showErrors(errors) {
    if (form) pageErrors(['batch', 'queryLength', 'keyLength', 'dtype'], errors);
  }

  function diagram(steps) {
    const flow = el('ol', { class: 'flow', 'aria-label': 'Data flow' });
    steps.forEach((s) =>
      flow.append(
        el(
          'li',
          { class: s.parameters ? 'step weights' : 'step' },
          el('strong', { text: s.name }),
          el('code', { text: s.shape }),
        ),
      ),
    );
    return flow;
  }

  function header(d) {
    return pageHeader(d.name, Object.assign(link(d.where, 'Go to the layer in its file'), { id: 'source' }));
  }

  function render(message) {
    if (message.type === 'none') {
      form = undefined;
      root.replaceChildren(el('p', { class: 'muted', text: message.reason }));
      return;
    }
    const d = message.data;
    const body = [
      section(
        'Data flow',
        diagram(d.steps),
        el('p', {
          class: 'legend',
          text: 'Outlined steps multiply by trained weights; the others hold no parameters.',
        }),
      ),
      section(
        'Each step',
        table(
          ['step', 'what happens', 'shape', 'FLOPs', 'kept for backward', 'memory'],
          d.steps.map((s) => [
            s.name,
            s.formula,
            s.shape,
            amount(s.flops, 'FLOPs'),
            s.saved,
            amount(s.savedBytes, 'bytes'),
          ]),
          [3, 5],
          true,
        ),
        el('p', {
          text: `Total: ${d.totalFlops.text}. The score matrix N·h·L·S holds ${d.scores.elements} numbers (${d.scores.bytes.text}). Autograd keeps ${d.savedBytes.text} of this layer (${d.savedElements} numbers) for the backward pass.`,
        }),
      ),
      section(
        'Parameters',
        table(
          ['tensor', 'role', 'shape', 'count', 'memory'],
          [
            ...d.parameters.map((p) => [p.name, p.role, p.shape, p.count, amount(p.bytes, 'bytes')]),
            ['total', '', '', d.totalParameters, amount(d.totalBytes, 'bytes')],
          ],
          [3, 4],
          true,
        ),
        el('p', { text: `No parameters in ${d.withoutParameters.join(', ')}.` }),
      ),
      d.lowRank
        ? section(
            'Why W_Q and W_K are two matrices',
            el('p', { text: d.lowRank.text }),
            table(
              ['per head', 'merged W_Q·W_Kᵀ', 'W_Q and W_K apart'],
              [
                ['parameters', d.lowRank.merged, d.lowRank.separate],
                ['FLOPs to apply', d.lowRank.mergedFlops, d.lowRank.separateFlops],
                ['rank', `≤ ${d.lowRank.rank}`, `≤ ${d.lowRank.rank}`],
              ],
              [1, 2],
              true,
            ),
          )
        : undefined,
      section('Notes', el('ul', {}, ...d.notes.map((n) => el('li', { text: n })))),
    ];
    if (!form) {
      form = buildForm();
      root.replaceChildren(
        el('header'),
        el('section', { id: 'settings' }),
        section('Sizes', form),
        el('div', { id: 'walkthrough' }),
      );
    }
    root.firstElementChild.replaceWith(header(d));
    document
      .getElementById('settings')
      .replaceChildren(el('h2', { text: 'Settings' }), table(['setting', 'value'], d.settings));
    document.getElementById('walkthrough').replaceChildren(...body.filter(Boolean));
    fillForm(d);
  }

  /** @param {MessageEvent<import('../src/vscode/webviewProtocol').ToWebview>} event */
  const receive = (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') return;
    if (message.type === 'invalid') {
      asked = false;
      showErrors(message.errors || {});
    } else if (message.type === 'copied') pageCopied(message.ok === true, 'The walkthrough');
    else if (message.type === 'explain' || message.type === 'none') {
      if (message.type === 'explain') vscode.setState({ target: message.target, inputs: message.data.inputs });
      render(message);
    }
  };
  window.addEventListener('message', receive);
  vscode.postMessage({ type: 'ready' });
})();
