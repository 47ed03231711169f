import { plainText, type AnswerResponse, type DocumentSummary, type List, type SearchResponse } from '@panya/core';

/*
 * Readable renderings of the structured results: hosts that ignore `structuredContent` show the
 * text to the model, so it carries everything needed to cite (titles and ids). Titles and
 * passages are plain text (search and citations come so from core); a document's own
 * markdown is its content and stays as stored.
 */

/** "1 chunk", "3 chunks". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function searchText(query: string, response: SearchResponse): string {
  if (response.results.length === 0) return `No chunks match "${query}". Try other words, or browse titles with svc_list_docs.`;
  const blocks = response.results.map((r, i) => {
    const where = [r.title, ...r.headingPath.filter((h) => h !== r.title)].join(' › ');
    const ids = `document ${r.documentId} · chunk ${r.chunkId}${r.url ? ` · ${r.url}` : ''}`;
    return `[${i + 1}] ${where}\n(${ids})\n${r.text.trim()}`;
  });
  return `${count(response.results.length, 'chunk')} for "${query}", best first:\n\n${blocks.join('\n\n')}`;
}

export function answerText(response: AnswerResponse): string {
  if (!response.grounded) return `${response.answer}\n\n(Not grounded: no passage of the knowledge base answers this.)`;
  const sources = response.citations.map((c) => `[${c.n}] ${c.title} (document ${c.documentId}, chunk ${c.chunkId})${c.url ? ` ${c.url}` : ''}`);
  return `${response.answer}\n\nSources:\n${sources.join('\n')}`;
}

export function listText(documents: DocumentSummary[], nextCursor: string | null, query?: string): string {
  const what = query ? ` with "${query}" in the title` : '';
  const more = nextCursor ? `\n\nMore documents may follow: call svc_list_docs again with cursor "${nextCursor}".` : '';
  if (documents.length === 0) return `No documents${what} on this page.${more}`;
  const lines = documents.map((d) => `- ${plainText(d.title)} (${d.id}) · updated ${d.updatedAt}${d.status === 'indexed' ? '' : ` · ${d.status}`}${d.url ? ` · ${d.url}` : ''}`);
  return `${count(documents.length, 'document')}${what}, newest first:\n${lines.join('\n')}${more}`;
}

export function documentText(doc: { id: string; title: string; updatedAt: string; url: string | null; status: string; contentMd: string }): string {
  const meta = [`id ${doc.id}`, `updated ${doc.updatedAt}`, ...(doc.url ? [doc.url] : []), ...(doc.status === 'indexed' ? [] : [`status ${doc.status}`])];
  return `Document "${plainText(doc.title)}" (${meta.join(' · ')})\n\n---\n\n${doc.contentMd}`;
}

/** The text block of a successful tool call (presentation only; the structured result is the table's output). */
export function toolText(tool: string, args: Record<string, unknown>, value: unknown): string {
  const query = typeof args.query === 'string' ? args.query : undefined;
  switch (tool) {
    case 'svc_search':
      return searchText(query ?? '', value as SearchResponse);
    case 'svc_answer':
      return answerText(value as AnswerResponse);
    case 'svc_list_docs': {
      const list = value as List<DocumentSummary>;
      return listText(list.data, list.nextCursor, query);
    }
    case 'svc_get_doc':
      return documentText(value as Parameters<typeof documentText>[0]);
    default:
      return JSON.stringify(value);
  }
}
