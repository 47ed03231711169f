import type { Citation } from '../ports/conversations.js';
import type { GeneratorContext } from '../ports/generator.js';
import type { Scope, Store } from '../ports/store.js';
import type { SearchService } from './search.js';

/** Passages handed to the generator per answer. */
export const CONTEXT_PASSAGES = 6;
const SNIPPET_CHARS = 240;

export interface GroundingContext {
  passages: GeneratorContext[];
  urls: Map<string, string | null>;
}

/** Retrieves the passages an answer may cite, numbered from 1 in rank order. */
export async function retrieveContext(store: Store, search: SearchService, scope: Scope, query: string): Promise<GroundingContext> {
  const hits = await search.retrieve(scope, query, CONTEXT_PASSAGES);
  const top = hits.slice(0, CONTEXT_PASSAGES);
  const chunks = new Map((await store.search.getChunks(scope, top.map((h) => h.chunkId))).map((c) => [c.id, c]));
  const passages: GeneratorContext[] = [];
  for (const hit of top) {
    const c = chunks.get(hit.chunkId);
    if (c) passages.push({ n: passages.length + 1, chunkId: c.id, documentId: c.documentId, title: c.title, headingPath: c.headingPath, text: c.text });
  }
  const docs = await store.documents.getMany(scope, [...new Set(passages.map((p) => p.documentId))]);
  return { passages, urls: new Map(docs.map((d) => [d.id, d.url])) };
}

/** Plain text of a chunk for a citation preview: markdown markers, table rules and fences removed. */
function snippet(text: string): string {
  const lines = text.split('\n').flatMap((raw) => {
    const line = raw.trim();
    if (/^\|?\s*:?-{3,}/.test(line) || line.startsWith('```')) return [];
    const plain = line.replace(/^(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/, '').replace(/\*\*|__|`/g, '');
    // A table row becomes its cells joined by a middle dot.
    return plain.startsWith('|') ? [plain.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()).join(' · ')] : [plain];
  });
  const flat = lines.join(' ').replace(/\s+/g, ' ').trim();
  return flat.length <= SNIPPET_CHARS ? flat : `${flat.slice(0, SNIPPET_CHARS - 1).trimEnd()}…`;
}

/** The passages an answer cites as `[n]`, in order of first citation; unknown numbers are ignored. */
export function citationsIn(answer: string, context: GroundingContext): Citation[] {
  const byN = new Map(context.passages.map((p) => [p.n, p]));
  const seen = new Set<number>();
  const citations: Citation[] = [];
  for (const match of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(match[1]);
    const p = byN.get(n);
    if (!p || seen.has(n)) continue;
    seen.add(n);
    citations.push({ n, documentId: p.documentId, chunkId: p.chunkId, title: p.title, url: context.urls.get(p.documentId) ?? null, snippet: snippet(p.text) });
  }
  return citations;
}
