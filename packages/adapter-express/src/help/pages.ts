/** The help center's server-rendered pages: plain HTML, one inline style sheet, and the ask box's small script. */
import type { AnswerResponse, DocumentRecord, HelpSite, SearchResult } from '@panya/core';
import { ASK_SCRIPT_PATH } from './ask-script.js';
import { CHROME, type HelpLocale } from './chrome.js';
import { escapeHtml, renderMarkdown, snippetText } from './markdown.js';

const DEFAULT_ACCENT = '#2f6feb';

export interface PageContext {
  site: HelpSite | null;
  locale: HelpLocale;
  /** Keep `?lang=` on links when the visitor chose the language explicitly. */
  explicitLocale: boolean;
  /** The site's publishable key: the ask box's script answers through it (no key, no script). */
  askKey?: string;
}

const accentOf = (site: HelpSite | null) => (site?.workspace.brandAccent && /^#[0-9a-f]{3,8}$/i.test(site.workspace.brandAccent) ? site.workspace.brandAccent : DEFAULT_ACCENT);

/** A site-relative link, keeping an explicit language choice. */
function href(ctx: PageContext, path: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  if (ctx.explicitLocale) params.set('lang', ctx.locale);
  const qs = params.toString();
  return `${ctx.site?.base ?? ''}${path}${qs ? `?${qs}` : ''}`;
}

function layout(ctx: PageContext, title: string, body: string): string {
  const t = CHROME[ctx.locale];
  const name = ctx.site ? escapeHtml(ctx.site.workspace.name) : escapeHtml(t.helpCenter);
  const other: HelpLocale = ctx.locale === 'th' ? 'en' : 'th';
  const search = ctx.site
    ? `<form class="search" method="get" action="${escapeHtml(href({ ...ctx, explicitLocale: false }, '/search'))}" role="search">
  <input type="search" name="q" placeholder="${escapeHtml(t.searchPlaceholder)}" aria-label="${escapeHtml(t.searchPlaceholder)}" maxlength="300">
  ${ctx.explicitLocale ? `<input type="hidden" name="lang" value="${ctx.locale}">` : ''}<button type="submit">${escapeHtml(t.search)}</button>
</form>`
    : '';
  return `<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${name}</title>
<style>
:root { --accent: ${accentOf(ctx.site)}; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Noto Sans Thai", sans-serif; color: #1f2328; background: #fff; }
header { background: var(--accent); color: #fff; padding: 1.25rem 1rem; }
header a { color: inherit; text-decoration: none; font-weight: 600; font-size: 1.25rem; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.search, .ask { display: flex; gap: .5rem; margin: 1rem 0; }
.search input, .ask input { flex: 1; padding: .5rem .75rem; border: 1px solid #d0d7de; border-radius: 6px; font: inherit; }
button { background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: .5rem 1rem; font: inherit; cursor: pointer; }
header .search input { border-color: transparent; }
header .search button { background: #fff; color: var(--accent); }
a { color: var(--accent); }
ul.articles { list-style: none; padding: 0; } ul.articles li { padding: .5rem 0; border-bottom: 1px solid #eaeef2; }
.meta, .snippet { color: #59636e; font-size: .9rem; }
.answer { background: #f6f8fa; border-left: 4px solid var(--accent); padding: .75rem 1rem; }
footer { max-width: 46rem; margin: 0 auto; padding: 1rem; color: #59636e; font-size: .9rem; }
pre { overflow: auto; background: #f6f8fa; padding: .75rem; } img { max-width: 100%; }
</style>
</head>
<body>
<header><a href="${escapeHtml(href(ctx, '/'))}">${name}</a>${search}</header>
<main>
${body}
</main>
<footer>${ctx.site ? `<a href="${escapeHtml(href({ ...ctx, locale: other, explicitLocale: true }, '/'))}" hreflang="${other}" lang="${other}">${CHROME[ctx.locale].language}</a>` : ''}</footer>
${ctx.askKey ? `<script src="${ASK_SCRIPT_PATH}" defer></script>\n` : ''}</body>
</html>
`;
}

/**
 * The ask box: a form that works without a script (the server answers through the site's key);
 * with the script, the page asks the answer endpoint itself with the key it carries.
 */
function askBox(ctx: PageContext, question = ''): string {
  const t = CHROME[ctx.locale];
  // Both languages' answer frames: the script shows the one of the language the question is written in.
  const frames = Object.fromEntries((['en', 'th'] as const).map((l) => [l, { sources: CHROME[l].sources, notGrounded: CHROME[l].notGrounded, waiting: CHROME[l].waiting, failed: CHROME[l].unavailable }]));
  const script = ctx.askKey
    ? ` data-key="${escapeHtml(ctx.askKey)}" data-articles="${escapeHtml(`${ctx.site?.base ?? ''}/articles/`)}" data-frames="${escapeHtml(JSON.stringify(frames))}"`
    : '';
  return `<section aria-labelledby="ask-title">
<h2 id="ask-title">${escapeHtml(t.askTitle)}</h2>
<form class="ask" method="post" action="${escapeHtml(href(ctx, '/ask'))}"${script}>
  <input type="text" name="q" value="${escapeHtml(question)}" placeholder="${escapeHtml(t.askPlaceholder)}" aria-label="${escapeHtml(t.askPlaceholder)}" maxlength="300" required>
  <input type="hidden" name="locale" value="${ctx.locale}">
  <button type="submit">${escapeHtml(t.ask)}</button>
</form>
<div class="ask-result" aria-live="polite"></div>
</section>`;
}

const articleLink = (ctx: PageContext, id: string) => escapeHtml(href(ctx, `/articles/${encodeURIComponent(id)}`));

export function homePage(ctx: PageContext, articles: readonly DocumentRecord[]): string {
  const t = CHROME[ctx.locale];
  const items = articles.map((doc) => `<li><a href="${articleLink(ctx, doc.id)}">${escapeHtml(doc.title)}</a></li>`).join('\n');
  return layout(ctx, t.helpCenter, `<h1>${escapeHtml(t.articles)}</h1>\n<ul class="articles">\n${items}\n</ul>\n${askBox(ctx)}`);
}

/** The page shows the title as its heading: a first `# heading` repeating it is left out of the body. */
function withoutTitleHeading(markdown: string, title: string): string {
  const first = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(markdown);
  const same = (a: string) => a.replace(/\s+/g, ' ').trim().toLowerCase();
  return first && same(first[1]!) === same(title) ? markdown.slice(first[0].length) : markdown;
}

export function articlePage(ctx: PageContext, doc: DocumentRecord): string {
  const t = CHROME[ctx.locale];
  const updated = new Date(doc.updatedAt).toLocaleDateString(ctx.locale === 'th' ? 'th-TH' : 'en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return layout(
    ctx,
    doc.title,
    `<p><a href="${escapeHtml(href(ctx, '/'))}">← ${escapeHtml(t.allArticles)}</a></p>
<article>
<h1>${escapeHtml(doc.title)}</h1>
<p class="meta">${escapeHtml(t.updated)} ${escapeHtml(updated)}</p>
${renderMarkdown(withoutTitleHeading(doc.contentMd, doc.title))}
</article>
${askBox(ctx)}`,
  );
}

export function searchPage(ctx: PageContext, query: string, results: readonly SearchResult[]): string {
  const t = CHROME[ctx.locale];
  const items = results
    .map((r) => {
      const heading = r.headingPath.length > 0 ? `<div class="meta">${escapeHtml(r.headingPath.join(' › '))}</div>` : '';
      const text = snippetText(r.text);
      const snippet = text.length > 240 ? `${text.slice(0, 239)}…` : text;
      return `<li><a href="${articleLink(ctx, r.documentId)}">${escapeHtml(r.title)}</a>${heading}<div class="snippet">${escapeHtml(snippet)}</div></li>`;
    })
    .join('\n');
  const body = query ? `<h1>${escapeHtml(t.resultsFor(query))}</h1>\n${results.length ? `<ul class="articles">\n${items}\n</ul>` : `<p>${escapeHtml(t.noResults)}</p>`}` : `<h1>${escapeHtml(t.search)}</h1>`;
  return layout(ctx, query ? t.resultsFor(query) : t.search, `${body}\n${askBox(ctx, query)}`);
}

export function answerPage(ctx: PageContext, question: string, answer: AnswerResponse): string {
  const t = CHROME[ctx.locale];
  const text = answer.grounded ? escapeHtml(answer.answer).replace(/\n/g, '<br>') : escapeHtml(t.notGrounded);
  const sources = answer.citations.length
    ? `<h2>${escapeHtml(t.sources)}</h2>\n<ol>\n${answer.citations.map((c) => `<li value="${c.n}"><a href="${articleLink(ctx, c.documentId)}">${escapeHtml(c.title)}</a></li>`).join('\n')}\n</ol>`
    : '';
  return layout(ctx, question, `<h1>${escapeHtml(question)}</h1>\n<div class="answer">${text}</div>\n${sources}\n${askBox(ctx, question)}`);
}

export function messagePage(ctx: PageContext, title: string, text: string): string {
  return layout(ctx, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}
