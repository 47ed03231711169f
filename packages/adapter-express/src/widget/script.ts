import { DETECT_LOCALE_JS, WIDGET_TEXT } from '@panya/core';

/**
 * The chat widget's browser script, served as `/widget.js`. A page embeds it with one tag,
 * `<script src="https://api.example.com/widget.js" data-key="svc_pub_…" async></script>`
 * (optional `data-lang="th|en"`, else the page's language, for the panel; optional
 * `data-visitor-token`: a short-lived token the tenant's backend signed for a signed-in visitor; each answer, and its
 * frame, follow the language its question is written in, the page's only breaking a tie): it reads the workspace's name and
 * accent (`GET /api/widget`), then adds a launcher and a panel in a shadow root (the page's CSS
 * cannot reach them) that streams answers from `POST /api/chat` with their citations. The key
 * works only from the tenant's allowed origins; elsewhere the widget stays hidden. Plain ES2017,
 * no framework, no inline script needed on the page.
 */
export const WIDGET_SCRIPT = String.raw`(function () {
  'use strict';
  var script = document.currentScript || document.querySelector('script[data-key][src*="widget.js"]');
  if (!script || !script.dataset.key || window.__panyaWidget) return;
  window.__panyaWidget = true;
  var key = script.dataset.key;
  var api = new URL(script.src, location.href).origin;
  var lang = (script.dataset.lang || document.documentElement.lang || navigator.language || 'en').toLowerCase().indexOf('th') === 0 ? 'th' : 'en';
  var TEXT = ${JSON.stringify(WIDGET_TEXT)};
  var T = TEXT[lang];
  var questionLocale = ${DETECT_LOCALE_JS};
  var headers = { Authorization: 'Bearer ' + key };
  // The visitor's own id (per browser), so budgets count visitors rather than shared addresses.
  try {
    var vid = localStorage.getItem('panya_vid');
    if (!vid) localStorage.setItem('panya_vid', (vid = Math.random().toString(36).slice(2) + Date.now().toString(36)));
    headers['X-Panya-Visitor'] = vid;
  } catch (e) {}
  // A signed-in visitor's identity, signed by the tenant's backend: their audiences and segments.
  if (script.dataset.visitorToken) headers['X-Panya-Visitor-Token'] = script.dataset.visitorToken;

  /** Text on the accent colour: white unless it lacks contrast (WCAG 4.5:1), then near-black. */
  function luminance(hex) {
    var h = hex.replace('#', '');
    if (h.length < 6) h = h.split('').map(function (c) { return c + c; }).join('');
    return [0, 2, 4].map(function (i) {
      var c = parseInt(h.substr(i, 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }).reduce(function (sum, c, i) { return sum + c * [0.2126, 0.7152, 0.0722][i]; }, 0);
  }
  function onAccent(accent) { return 1.05 / (luminance(accent) + 0.05) >= 4.5 ? '#ffffff' : '#111111'; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var name in attrs || {}) e.setAttribute(name, attrs[name]);
    if (text) e.textContent = text;
    return e;
  }

  fetch(api + '/api/widget', { headers: headers }).then(function (res) {
    if (!res.ok) throw new Error('HTTP ' + res.status);
    return res.json();
  }).then(start, function (error) {
    // A page on an origin the tenant does not allow fails here (CORS or 403): the widget stays hidden.
    console.warn('Panya widget: the key was refused on this page (' + error.message + '); its origin must be one of the tenant\'s allowed origins.');
  });

  function start(config) {
    var accent = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(config.brandAccent || '') ? config.brandAccent : '#2f6feb';
    var host = el('div', { 'data-panya-widget': '' });
    var root = host.attachShadow({ mode: 'open' });
    var style = el('style');
    style.textContent = [
      ':host{all:initial}',
      '*{box-sizing:border-box;font-family:system-ui,-apple-system,"Noto Sans Thai",sans-serif}',
      '.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;background:var(--accent);color:var(--on-accent);cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}',
      '.launcher svg{width:26px;height:26px;fill:currentColor}',
      'button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}',
      '.panel{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:min(380px,calc(100vw - 40px));height:min(560px,calc(100vh - 120px));display:flex;flex-direction:column;background:#fff;color:#1f2328;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden;font-size:15px;line-height:1.5}',
      '.panel[hidden]{display:none}',
      'header{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;background:var(--accent);color:var(--on-accent)}',
      'h2{margin:0;font-size:16px;font-weight:600}',
      '.close{background:transparent;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;width:32px;height:32px;border-radius:6px}',
      '.log{flex:1;overflow:auto;padding:12px 16px;display:flex;flex-direction:column;gap:10px}',
      '.msg{padding:8px 12px;border-radius:10px;max-width:90%;white-space:pre-wrap;word-wrap:break-word}',
      '.user{align-self:flex-end;background:#eaeef2}',
      '.bot{align-self:flex-start;background:#f6f8fa;border-left:3px solid var(--accent)}',
      '.intro{color:#59636e}',
      '.sources{margin:6px 0 0;padding-left:20px;font-size:13px}',
      '.sources a{color:#0550ae}',
      '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
      'form{display:flex;gap:8px;padding:12px;border-top:1px solid #d0d7de}',
      'input{flex:1;padding:8px 10px;border:1px solid #6e7781;border-radius:6px;font-size:15px;color:#1f2328;background:#fff}',
      '.send{padding:8px 14px;border:0;border-radius:6px;background:var(--accent);color:var(--on-accent);font-size:15px;cursor:pointer}',
      '.send:disabled{opacity:.6;cursor:progress}'
    ].join('\n');
    host.style.setProperty('--accent', accent);
    host.style.setProperty('--on-accent', onAccent(accent));

    var launcher = el('button', { type: 'button', class: 'launcher', 'aria-label': T.open, 'aria-expanded': 'false', 'aria-controls': 'panya-panel' });
    launcher.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';
    var title = config.name || T.title;
    var panel = el('section', { class: 'panel', id: 'panya-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'panya-title', lang: lang, hidden: '' });
    var header = el('header');
    header.appendChild(el('h2', { id: 'panya-title' }, title));
    var close = el('button', { type: 'button', class: 'close', 'aria-label': T.close }, '×');
    header.appendChild(close);
    var log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': title });
    log.appendChild(el('p', { class: 'msg bot intro' }, T.intro));
    var form = el('form');
    var label = el('label', { for: 'panya-input', class: 'sr' }, T.label);
    var input = el('input', { id: 'panya-input', name: 'q', type: 'text', autocomplete: 'off', maxlength: '2000', placeholder: T.placeholder, required: '' });
    var send = el('button', { type: 'submit', class: 'send' }, T.send);
    form.appendChild(label); form.appendChild(input); form.appendChild(send);
    panel.appendChild(header); panel.appendChild(log); panel.appendChild(form);
    root.appendChild(style); root.appendChild(panel); root.appendChild(launcher);
    document.body.appendChild(host);

    function setOpen(open) {
      panel.hidden = !open;
      launcher.setAttribute('aria-expanded', String(open));
      launcher.setAttribute('aria-label', open ? T.close : T.open);
      (open ? input : launcher).focus();
    }
    launcher.addEventListener('click', function () { setOpen(panel.hidden); });
    close.addEventListener('click', function () { setOpen(false); });
    panel.addEventListener('keydown', function (e) { if (e.key === 'Escape') setOpen(false); });

    var conversationId = null;
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var query = input.value.trim();
      if (!query || send.disabled) return;
      input.value = '';
      var locale = questionLocale(query, lang), A = TEXT[locale];
      log.appendChild(el('p', { class: 'msg user', 'aria-label': T.you, lang: locale }, query));
      var answer = el('div', { class: 'msg bot', 'aria-label': T.bot, 'aria-busy': 'true', lang: locale }, A.thinking);
      log.appendChild(answer);
      log.scrollTop = log.scrollHeight;
      send.disabled = true;
      ask(query, locale, answer).catch(function () { answer.textContent = A.failed; }).then(function () {
        answer.removeAttribute('aria-busy');
        send.disabled = false;
        input.focus();
      });
    });

    /** Streams one answer from the chat endpoint (server-sent events over a POST). */
    function ask(query, locale, answer) {
      var T = TEXT[locale];
      var body = { query: query, locale: locale };
      if (conversationId) body.conversationId = conversationId;
      return fetch(api + '/api/chat', { method: 'POST', headers: Object.assign({ 'Content-Type': 'application/json' }, headers), body: JSON.stringify(body) }).then(function (res) {
        if (!res.ok || !res.body) return res.json().then(function (p) { answer.textContent = p.detail || T.failed; }, function () { answer.textContent = T.failed; });
        var text = el('span'), sources = null, started = false;
        var reader = res.body.getReader(), decoder = new TextDecoder(), buffer = '';
        function handle(block) {
          var event = 'message', data = '';
          block.split('\n').forEach(function (line) {
            if (line.indexOf('event:') === 0) event = line.slice(6).trim();
            else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
          });
          if (!data) return;
          var value = JSON.parse(data);
          if (!started && (event === 'delta' || event === 'error')) { started = true; answer.textContent = ''; answer.appendChild(text); }
          if (event === 'meta') conversationId = value.conversationId;
          else if (event === 'delta') text.textContent += value.text;
          else if (event === 'error') text.textContent += (text.textContent ? '\n' : '') + (value.detail || T.failed);
          else if (event === 'citation') {
            if (!sources) { answer.appendChild(el('div', { class: 'sr' }, T.sources)); sources = el('ol', { class: 'sources', 'aria-label': T.sources }); answer.appendChild(sources); }
            var item = el('li', { value: String(value.n) });
            var href = value.articleUrl || (config.articleUrl ? config.articleUrl.replace('{documentId}', encodeURIComponent(value.documentId)) : value.url);
            if (href && /^https?:/i.test(href)) item.appendChild(el('a', { href: href, target: '_blank', rel: 'noopener' }, value.title));
            else item.textContent = value.title;
            sources.appendChild(item);
          }
          log.scrollTop = log.scrollHeight;
        }
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) return;
            buffer += decoder.decode(chunk.value, { stream: true });
            var blocks = buffer.split('\n\n');
            buffer = blocks.pop();
            blocks.forEach(handle);
            return pump();
          });
        }
        return pump();
      });
    }
  }
})();
`;
