/**
 * Article markdown to HTML for the public help center, through `marked` with what a public page
 * must not carry taken out: raw HTML is shown as text, and links or images whose address is not
 * http(s), mailto or relative (e.g. `javascript:`, `data:`) lose their address.
 */
import { headingAnchor } from '@panya/core';
import { Marked, type Tokens } from 'marked';

/** Anchors already given in the article being rendered (rendering is synchronous, one article at a time). */
let anchorsSeen = new Map<string, number>();

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The address if it is safe to link: http(s), mailto, or relative. A relative address may not
 * carry a scheme-like prefix (`javascript:`, `java&#x09;script:`) in its first segment.
 */
export function safeUrl(href: string, schemes: readonly string[] = ['http:', 'https:', 'mailto:']): string | null {
  const url = href.trim();
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url);
  if (scheme) return schemes.includes(scheme[1]!.toLowerCase()) ? url : null;
  const first = url.split(/[/?#]/, 1)[0] ?? '';
  return /[:&\\\s\u0000-\u001f]/.test(first) ? null : url;
}

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Headings carry the anchor a citation's `articleUrl` links to.
    heading({ tokens, depth, text }: Tokens.Heading) {
      const base = headingAnchor(text.replace(/[*_`[\]()]/g, ''));
      const seen = anchorsSeen.get(base) ?? 0;
      anchorsSeen.set(base, seen + 1);
      const id = base && seen > 0 ? `${base}-${seen + 1}` : base;
      return `<h${depth}${id ? ` id="${escapeHtml(id)}"` : ''}>${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const url = safeUrl(href);
      if (url === null) return inner;
      return `<a href="${escapeHtml(url)}"${title ? ` title="${escapeHtml(title)}"` : ''} rel="nofollow noopener">${inner}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      const url = safeUrl(href, ['http:', 'https:']);
      if (url === null) return escapeHtml(text);
      return `<img src="${escapeHtml(url)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''} loading="lazy">`;
    },
  },
});

/** Safe HTML for an article's markdown. */
export function renderMarkdown(source: string): string {
  anchorsSeen = new Map();
  return markdown.parse(source, { async: false }) as string;
}

/**
 * A search result's text as a snippet reads: markdown's markers (headings, emphasis, code, list
 * bullets, quotes) dropped, lines joined. The text is plain already (no tags or link targets).
 */
export function snippetText(markdown: string): string {
  return markdown
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])([*_])(?=\S)([^*_\n]*?\S)\2(?!\w)/g, '$1$3')
    .replace(/`+([^`\n]*)`+/g, '$1')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}
