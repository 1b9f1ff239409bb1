// @ts-check
// What both panels draw with, loaded before each panel's own script: elements built with DOM calls and
// textContent only (no data ever becomes HTML), tables whose rows become cards in a narrow panel, a link back
// to the source, the header with Copy as Markdown and its feedback, and a message beside each input.
(function () {
  const vscode = acquireVsCodeApi();

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== undefined && c !== null && c !== false) node.append(c);
    return node;
  }

  // A row is its cells, or { chosen, cells }; a cell is text, a node, or { text, title } for a readable amount
  // with its exact digits on hover. Each cell carries its column's name, which the narrow layout shows beside it.
  function table(headers, rows, numeric, wide) {
    const head = el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })));
    const body = rows.map((row) => {
      const cells = Array.isArray(row) ? row : row.cells;
      return el(
        'tr',
        !Array.isArray(row) && row.chosen ? { class: 'chosen' } : {},
        ...cells.map((c, i) => {
          const attrs = { 'data-label': headers[i], class: numeric && numeric.includes(i) ? 'num' : '' };
          if (c instanceof Node) return el('td', attrs, c);
          const cell = typeof c === 'object' ? c : { text: c };
          return cell.title
            ? el('td', attrs, el('span', { class: 'exact', title: cell.title, text: cell.text }))
            : el('td', { ...attrs, text: cell.text });
        }),
      );
    });
    return el('table', { class: wide ? 'wide' : '' }, el('thead', {}, head), el('tbody', {}, ...body));
  }

  /**
   * A form control of the panel, by its id.
   * @param {string} id
   * @returns {HTMLInputElement}
   */
  function field(id) {
    return /** @type {HTMLInputElement} */ (document.getElementById(id));
  }

  function section(title, ...children) {
    return el('section', {}, el('h2', { text: title }), ...children);
  }

  /** A link that shows the source: the panel's layer or model, or one of `layer`'s places. */
  function link(text, title, layer) {
    const a = el('a', { href: '#', title, text });
    a.addEventListener('click', (e) => {
      e.preventDefault();
      vscode.postMessage(layer === undefined ? { type: 'reveal' } : { type: 'reveal', layer });
    });
    return a;
  }

  function header(name, source) {
    const copy = el('button', { type: 'button', id: 'copy', text: 'Copy as Markdown' });
    copy.addEventListener('click', () => vscode.postMessage({ type: 'copy' }));
    return el(
      'header',
      {},
      el('h1', {}, `${name} at `, source),
      el('div', { class: 'actions' }, copy, el('span', { id: 'copy-status', role: 'status' })),
    );
  }

  let copyTimer;
  /** What Copy as Markdown did: `what` is on the clipboard, or it could not be written. */
  function copied(ok, what) {
    const button = document.getElementById('copy');
    const status = document.getElementById('copy-status');
    if (!button) return;
    button.textContent = ok ? 'Copied ✓' : 'Copy failed';
    status.textContent = ok ? `${what} is on the clipboard as Markdown.` : 'The clipboard could not be written.';
    clearTimeout(copyTimer);
    copyTimer = setTimeout(() => {
      button.textContent = 'Copy as Markdown';
      status.textContent = '';
    }, 2500);
  }

  /** The message the extension gave each field, or none. */
  function showErrors(fields, errors) {
    for (const name of fields) {
      const input = document.getElementById(name);
      if (!input) continue;
      document.getElementById(`${name}-error`).textContent = errors[name] || '';
      if (errors[name]) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  window.attentionLensPage = { vscode, el, field, table, section, link, header, copied, showErrors };
})();
