import type { Citation } from '../ports/conversations.js';
import type { GeneratorContext } from '../ports/generator.js';
import type { Scope } from '../ports/store.js';
import type { SearchService } from './search.js';

/** Passages handed to the generator per answer. */
export const CONTEXT_PASSAGES = 6;
const SNIPPET_CHARS = 240;

export interface GroundingContext {
  passages: GeneratorContext[];
  urls: Map<string, string | null>;
}

/** Retrieves the passages an answer may cite, numbered from 1 in rank order (the search pipeline, top 6). */
export async function retrieveContext(search: SearchService, scope: Scope, query: string): Promise<GroundingContext> {
  const { results } = await search.run(scope, { query, topK: CONTEXT_PASSAGES });
  return {
    passages: results.map((r, i) => ({ n: i + 1, chunkId: r.chunkId, documentId: r.documentId, title: r.title, headingPath: r.headingPath, text: r.text })),
    urls: new Map(results.map((r) => [r.documentId, r.url])),
  };
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
