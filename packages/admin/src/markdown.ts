import { Marked } from 'marked';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Markdown for the editor's preview: raw HTML is shown as text and only web, mail and relative
 * links are kept, so a document cannot put markup or script into the admin app.
 */
const marked = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
  walkTokens(token) {
    if ((token.type === 'link' || token.type === 'image') && !/^(https?:|mailto:|\/|#)/i.test(token.href)) token.href = '#';
  },
});

export function renderMarkdown(md: string): string {
  return marked.parse(md, { async: false }) as string;
}
