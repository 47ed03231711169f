import { CONTEXT_PASSAGES } from '../bounds.js';
import type { Citation } from './ports/conversations.js';
import type { GeneratorContext } from './ports/generator.js';
import type { Audiences } from '../search/ports/search-index.js';
import type { DocumentRef, Scope } from '../ports/store.js';
import { headingAnchor } from '../hostnames/help-center-rules.js';
import { AUDIENCE_PUBLIC, canRead } from '../audiences/rules.js';
import { plainText } from '../text/plain.js';
import type { SearchService } from '../search/search.js';

const SNIPPET_CHARS = 240;

export interface GroundingContext {
  passages: GeneratorContext[];
  urls: Map<string, string | null>;
  /** The best fused search score among the passages; null when retrieval found nothing. */
  topScore?: number | null;
  /** Help-center article URL (without anchor) of each published document of the context. */
  articles?: Map<string, string>;
}

/** Where the caller's help center shows articles: `{base}/articles/{id}`; null when it has none. */
export interface ArticleLinks {
  base: string | null;
  refs(scope: Scope, ids: readonly string[]): Promise<DocumentRef[]>;
}

/** Passages (by rank) whose list, cut at the chunk's end, may be completed from the next chunk. */
const NEIGHBOUR_PASSAGES = 3;
/** The last line of a chunk that ends inside a list: a list item. */
const ENDS_IN_LIST = /(?:^|\n)[ \t]*(?:\d+[.)]|[-*+])[ \t]+[^\n]*\s*$/u;
/** A list item's line in the next chunk; what comes before it is the overlap both chunks share. */
const LIST_ITEM_LINE = /^[ \t]*(?:\d+[.)]|[-*+])[ \t]+/mu;
/** How far into the next chunk the list must go on (past the carried overlap). */
const CONTINUATION_CHARS = 600;

/**
 * Retrieves the passages an answer may cite, numbered from 1 in rank order (the search pipeline,
 * top 6). A top passage that ends inside a list takes in the next chunk of its document when that
 * chunk is of the same section and goes on with the list: a how-to answer needs every step.
 */
export async function retrieveContext(search: SearchService, scope: Scope, query: string, audiences: Audiences = null, links?: ArticleLinks): Promise<GroundingContext> {
  const { results } = await search.run(scope, { query, topK: CONTEXT_PASSAGES }, audiences);
  const passages: GeneratorContext[] = results.map((r, i) => ({ n: i + 1, chunkId: r.chunkId, documentId: r.documentId, title: r.title, headingPath: r.headingPath, text: r.text }));
  await Promise.all(
    passages.slice(0, NEIGHBOUR_PASSAGES).map(async (p) => {
      if (!ENDS_IN_LIST.test(p.text)) return;
      const next = await search.nextChunk(scope, p.chunkId);
      if (!next || next.headingPath.join('\u0000') !== p.headingPath.join('\u0000')) return;
      const item = LIST_ITEM_LINE.exec(next.text);
      if (!item || item.index > CONTINUATION_CHARS) return;
      // Lines both chunks hold (the overlap carried into the next chunk) are taken once.
      const have = new Set(p.text.split('\n').map((l) => l.trim()));
      const lines = next.text.slice(item.index).split('\n');
      let from = 0;
      while (from < lines.length && have.has(lines[from]!.trim())) from++;
      if (from < lines.length) p.text = `${p.text}\n${lines.slice(from).join('\n')}`;
    }),
  );
  const context: GroundingContext = { passages, urls: new Map(results.map((r) => [r.documentId, r.url])), topScore: results[0]?.score ?? null };
  if (links?.base && passages.length > 0) {
    const refs = await links.refs(scope, [...new Set(passages.map((p) => p.documentId))]);
    context.articles = new Map(refs.filter((d) => canRead([AUDIENCE_PUBLIC], d.audiences)).map((d) => [d.id, `${links.base}/articles/${encodeURIComponent(d.id)}`]));
  }
  return context;
}

/** Plain text of a chunk for a citation preview: markdown markers, table rules and fences removed. */
function snippet(text: string): string {
  const lines = plainText(text).split('\n').flatMap((raw) => {
    const line = raw.trim();
    if (/^\|?\s*:?-{3,}/.test(line) || line.startsWith('```')) return [];
    const plain = line.replace(/^(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/, '').replace(/\*\*|__|`/g, '');
    // A table row becomes its cells joined by a middle dot.
    return plain.startsWith('|') ? [plain.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()).join(' · ')] : [plain];
  });
  const flat = lines.join(' ').replace(/\s+/g, ' ').trim();
  return flat.length <= SNIPPET_CHARS ? flat : `${flat.slice(0, SNIPPET_CHARS - 1).trimEnd()}…`;
}

function citationOf(p: GeneratorContext, n: number, context: GroundingContext): Required<Citation> {
  const article = context.articles?.get(p.documentId);
  // The first heading is the article's title, shown as the page's own heading: only a section below it gets an anchor.
  const section = p.headingPath.length > 1 ? p.headingPath.at(-1)! : '';
  const anchor = section ? headingAnchor(section) : '';
  return {
    n,
    documentId: p.documentId,
    chunkId: p.chunkId,
    title: plainText(p.title),
    headingPath: p.headingPath,
    url: context.urls.get(p.documentId) ?? null,
    articleUrl: article ? `${article}${anchor ? `#${anchor}` : ''}` : null,
    snippet: snippet(p.text),
  };
}

/** The passages an answer cites as `[n]`, in order of first citation; unknown numbers are ignored. */
export function citationsIn(answer: string, context: GroundingContext): Required<Citation>[] {
  const byN = new Map(context.passages.map((p) => [p.n, p]));
  const seen = new Set<number>();
  const citations: Required<Citation>[] = [];
  for (const match of answer.matchAll(MARKER)) {
    for (const n of numbersOf(match[1]!)) {
      const p = byN.get(n);
      if (!p || seen.has(n)) continue;
      seen.add(n);
      citations.push(citationOf(p, n, context));
    }
  }
  return citations;
}

/** A citation marker: `[2]`, or several passages in one bracket (`[1, 3]`). */
const MARKER = / ?\[(\d{1,3}(?:\s*,\s*\d{1,3}){0,9})\]/g;
/** A marker that the next piece of a stream may complete ("… [1" + "2]", "[1," + " 3]"); bounded. */
const OPEN_MARKER = / ?\[(?:\d{1,3}(?:\s*,\s*\d{0,3}){0,9}\s*)?$/;

const numbersOf = (list: string) => list.split(',').map((d) => Number(d.trim()));

/**
 * Renumbers an answer's citations 1..n in order of first use while it streams: generators cite
 * passages by search rank (`[2] … [5]`), readers expect `[1] … [2]`. Markers naming no passage are
 * dropped. Only a possibly incomplete marker at the end of a piece is held back.
 */
export class CitationNumbering {
  private held = '';
  /** Passage number → number shown. */
  private readonly shown = new Map<number, number>();
  private readonly byN: Map<number, GeneratorContext>;

  constructor(private readonly context: GroundingContext) {
    this.byN = new Map(context.passages.map((p) => [p.n, p]));
  }

  /** Rewrites the next piece of the answer; returns what can be emitted now. */
  push(piece: string): string {
    const text = this.held + piece;
    const open = OPEN_MARKER.exec(text);
    this.held = open ? text.slice(open.index) : '';
    return this.rewrite(open ? text.slice(0, open.index) : text);
  }

  /** The rest held back, at the end of the answer. */
  flush(): string {
    const rest = this.rewrite(this.held);
    this.held = '';
    return rest;
  }

  /** The cited passages, numbered as shown. */
  citations(): Required<Citation>[] {
    return [...this.shown].map(([n, shown]) => citationOf(this.byN.get(n)!, shown, this.context));
  }

  /** Each marker becomes `[k]` per known passage (`[1, 3]` → `[1][2]`); a marker naming none is removed. */
  private rewrite(text: string): string {
    return text.replace(MARKER, (marker, list: string) => {
      const known = [...new Set(numbersOf(list))].filter((n) => this.byN.has(n));
      if (known.length === 0) return '';
      for (const n of known) if (!this.shown.has(n)) this.shown.set(n, this.shown.size + 1);
      return `${marker.startsWith(' ') ? ' ' : ''}${known.map((n) => `[${this.shown.get(n)}]`).join('')}`;
    });
  }
}

/** Renumbers a complete answer (see `CitationNumbering`). */
export function numberCitations(answer: string, context: GroundingContext): { text: string; citations: Required<Citation>[] } {
  const numbering = new CitationNumbering(context);
  const text = numbering.push(answer) + numbering.flush();
  return { text, citations: numbering.citations() };
}
