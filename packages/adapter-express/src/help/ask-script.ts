/**
 * The help center's ask box script: a form with the site's publishable key in `data-key` asks
 * `POST {base}/ask` with the key (as a page on another site would ask `/api/answer`) and shows
 * the answer and its sources in place. Without it the form still posts and the server answers.
 */
import { createHash } from 'node:crypto';
import { DETECT_LOCALE_JS } from '@panya/core';

/** Served on every help-center host, outside any site's paths (no tenant slug starts with `_`). */
export const ASK_SCRIPT_PATH = '/_help/ask.js';

export const ASK_SCRIPT = String.raw`(function () {
  'use strict';
  function el(tag, text) { var e = document.createElement(tag); if (text) e.textContent = text; return e; }
  // The question's language chooses the answer and its frame; the page's (the form's locale) breaks a tie.
  var questionLocale = ${DETECT_LOCALE_JS};
  document.querySelectorAll('form.ask[data-key]').forEach(function (form) {
    var out = form.parentNode.querySelector('.ask-result');
    form.addEventListener('submit', function (event) {
      var q = form.elements.q.value.trim();
      if (!q || !out) return;
      event.preventDefault();
      var button = form.querySelector('button');
      var locale = questionLocale(q, form.elements.locale.value);
      var F = JSON.parse(form.dataset.frames)[locale];
      button.disabled = true;
      out.lang = locale;
      out.replaceChildren(el('p', F.waiting));
      fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer ' + form.dataset.key },
        body: JSON.stringify({ query: q, locale: locale })
      }).then(function (res) {
        return res.json().then(function (body) { if (!res.ok) throw new Error(body.detail || F.failed); return body; });
      }).then(function (answer) {
        var box = el('div', answer.grounded ? answer.answer : F.notGrounded);
        box.className = 'answer';
        var nodes = [box];
        if (answer.citations.length) {
          var list = el('ol');
          answer.citations.forEach(function (c) {
            var item = el('li'); item.value = c.n;
            var link = el('a', c.title); link.href = /^https?:/i.test(c.articleUrl || '') ? c.articleUrl : form.dataset.articles + encodeURIComponent(c.documentId);
            item.appendChild(link); list.appendChild(item);
          });
          nodes.push(el('h3', F.sources), list);
        }
        out.replaceChildren.apply(out, nodes);
      }).catch(function (error) {
        out.replaceChildren(el('p', error.message || F.failed));
      }).finally(function () { button.disabled = false; });
    });
  });
})();
`;

export const ASK_SCRIPT_ETAG = `"${createHash('sha256').update(ASK_SCRIPT).digest('base64url').slice(0, 27)}"`;
