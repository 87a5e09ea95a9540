/**
 * The inbox's browser script (served as /inbox/app.js). Every value from the sandbox reaches the page as a
 * text node (never as HTML), so a message body like `<img src=x onerror=...>` is shown, not run.
 * An e-mail body that holds HTML is also rendered, in an iframe with an empty `sandbox` attribute (no
 * scripts, no forms, an opaque origin), beside its source, as Mailpit does.
 * The page opens on the snapshot embedded in it; then server-sent events say "something changed" and the
 * page fetches one bounded snapshot.
 */
export const INBOX_JS = String.raw`'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const h = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) if (c !== null && c !== undefined && c !== '') e.append(typeof c === 'object' ? c : String(c));
    return e;
  };
  const time = (iso) => (iso ? iso.slice(11, 19) : '');
  const table = (head, rows) => rows.length === 0 ? null : h('table', null, h('thead', null, h('tr', null, ...head.map((t) => h('th', null, t)))), h('tbody', null, ...rows));
  // A section is rebuilt only when its data changed: rendering is what an open page costs, not fetching.
  const shown = new Map();
  const section = (id, data, build, empty) => {
    const key = JSON.stringify(data);
    if (shown.get(id) === key) return;
    shown.set(id, key);
    $(id).replaceChildren((data.length && build(data)) || h('p', { class: 'empty' }, empty));
  };

  const looksLikeHtml = (text) => /<[a-z][^>]*>/i.test(text);
  function body(m) {
    const source = h('pre', { class: 'body' }, m.body);
    if (m.channel !== 'email' || !looksLikeHtml(m.body)) return source;
    const preview = h('iframe', { class: 'preview', sandbox: '', referrerpolicy: 'no-referrer', title: 'HTML preview of ' + m.id });
    preview.srcdoc = m.body;
    return h('div', { class: 'html-body' }, h('div', null, h('div', { class: 'label' }, 'preview'), preview), h('div', null, h('div', { class: 'label' }, 'source'), source));
  }

  function messages(list) {
    const byChannel = new Map();
    for (const m of list.slice().reverse()) {
      if (!byChannel.has(m.channel)) byChannel.set(m.channel, new Map());
      const byTo = byChannel.get(m.channel);
      if (!byTo.has(m.to)) byTo.set(m.to, []);
      byTo.get(m.to).push(m);
    }
    const out = h('div');
    for (const [channel, byTo] of byChannel) {
      out.append(h('h3', null, channel, ' ', h('span', { class: 'count' }, '(' + byTo.size + ' recipients)')));
      for (const [to, ms] of byTo) {
        out.append(h('details', { open: '' }, h('summary', null, to, ' ', h('span', { class: 'count' }, '(' + ms.length + ')')),
          ...ms.map((m) => h('article', { class: 'message', 'data-id': m.id },
            h('div', { class: 'meta' }, time(m.created_at) + ' · ' + m.id + ' · key ' + m.key + (m.idempotency_key ? ' · Idempotency-Key ' + m.idempotency_key : '')),
            m.subject === null ? null : h('div', { class: 'subject' }, m.subject),
            body(m)))));
      }
    }
    return out;
  }

  function render(s) {
    const t = s.totals;
    $('totals').textContent = t.messages + ' messages · ' + t.contacts + ' contacts · ' + t.jobs + ' jobs · ' + t.requests + ' API requests' + (t.messages > s.messages.length ? ' (showing the newest ' + s.messages.length + ')' : '');
    section('messages', s.messages, messages, 'No messages yet.');
    section('rates', s.rate_windows, (ws) => table(['key', 'account', 'used', 'remaining', 'resets'], ws.map((w) =>
      h('tr', null, h('td', { class: 'nowrap' }, w.key), h('td', null, w.account), h('td', { class: 'nowrap' }, w.used + ' / ' + w.limit), h('td', null, w.remaining), h('td', null, time(w.resets_at))))), 'No calls yet.');
    section('events', s.events, (es) => table(['time', 'what', 'status', 'route', 'key', 'detail'], es.slice().reverse().map((e) =>
      h('tr', null, h('td', { class: 'nowrap' }, time(e.at)), h('td', { class: 'nowrap kind kind-' + e.kind }, e.kind.replace('_', ' ')), h('td', null, e.status || '—'), h('td', null, e.route), h('td', { class: 'nowrap' }, e.key || '—'), h('td', { class: 'detail' }, e.detail)))), 'Nothing on the wire yet.');
    // A row error is named as the service returns it: by the zero-based index of its element in the
    // import call's contacts (the API's "index"). The service never sees a file, so it cannot say a line.
    section('jobs', s.jobs, (js) => table(['job', 'status', 'rows', 'row errors (element of the import call, from 0)'], js.slice().reverse().map((j) =>
      h('tr', null, h('td', null, j.id), h('td', null, j.status), h('td', { class: 'nowrap' }, j.processed + ' / ' + j.total),
        h('td', null, j.failed === 0 ? '0' : h('ul', { class: 'errors' }, ...j.errors.map((e) => h('li', null, 'element ' + e.index + ': ' + e.error.code + (e.error.param ? ' (' + e.error.param + ')' : '') + ' — ' + e.error.message))))))), 'No jobs yet.');
    section('contacts', s.contacts, (cs) => table(['name', 'whatsapp', 'email', 'attributes'], cs.slice().reverse().map((c) =>
      h('tr', null, h('td', null, c.first_name || '—'), h('td', null, c.whatsapp || '—'), h('td', null, c.email || '—'),
        h('td', null, Object.entries(c.attributes).map(([k, v]) => k + ': ' + JSON.stringify(v)).join(', ') || '—')))), 'No contacts yet.');
  }

  // At most one snapshot per second however busy the sandbox is: the page must not slow down what it watches.
  const MIN_GAP_MS = 1000;
  let last = 0;
  let timer = null;
  function refresh() {
    if (timer !== null) return;
    timer = setTimeout(load, Math.max(0, last + MIN_GAP_MS - Date.now()));
  }
  async function load() {
    last = Date.now();
    try {
      const r = await fetch('/inbox/state', { cache: 'no-store' });
      if (r.ok) render(await r.json());
    } catch (e) {
      setLive('off', 'sandbox unreachable');
    } finally {
      timer = null;
    }
  }
  function setLive(cls, text) {
    $('live').className = 'live ' + cls;
    $('live').textContent = text;
  }

  const initial = $('initial-state');
  if (initial) render(JSON.parse(initial.textContent));
  const stream = new EventSource('/inbox/stream');
  stream.onopen = () => setLive('on', 'live');
  stream.onmessage = () => refresh();
  stream.onerror = () => setLive('off', 'reconnecting…');
  if (!initial) refresh();
})();
`;
