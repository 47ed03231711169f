import { canRead } from '../audiences/rules.js';
import { LRUCache } from 'lru-cache';
import { err, ok, type Result } from 'neverthrow';
import { isUpstreamError, type PanyaError } from '../errors.js';
import type { Embedder } from './ports/embedder.js';
import type { Audiences, RankedHit, ResultChunk } from './ports/search-index.js';
import type { Scope } from '../ports/store.js';
import type { SearchResponse, SearchResult } from '../schemas/responses.js';
import { searchSchema, type SearchInput, type SearchRequest } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { reciprocalRankFusion, RRF_K, type FusedHit } from '../search/fusion.js';
import { createQueryTimeVectors, QUERY_TIME_CANDIDATES } from '../search/query-time-vectors.js';
import { DEFAULT_MAX_WORKSPACES } from '../search/lexical-ranker.js';
import { MAX_QUERY_FRAGMENTS } from '../bounds.js';
import { plainText } from '../text/plain.js';
import { boundTerms, searchTerms } from '../text/query.js';
import { queryFragments, tokenize } from '../text/tokenizer.js';
import { audiencesOf, requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { redactorFor } from '../privacy/settings.js';

export type { SearchResponse, SearchResult } from '../schemas/responses.js';

/** Re-orders fused candidates (e.g. a cross-encoder). Optional; runs after fusion, before the threshold. */
export interface Reranker {
  rerank(query: string, candidates: SearchResult[]): Promise<SearchResult[]>;
}

export interface SearchOptions {
  /** Default channel weights for RRF. */
  weights?: { lexical?: number; semantic?: number; trigram?: number };
  /** Candidates taken from each channel before fusion. */
  candidates?: number;
  /** Fused results scoring below this are dropped (applied after fusion and rerank). */
  minScore?: number;
  reranker?: Reranker;
  /**
   * Recent answers, kept per process under the tenant's search generation (see
   * `SearchIndex.generation`): a repeated query is answered without running the channels, the
   * query embedding included, and any write to what it returned makes it stale everywhere.
   * `false` turns it off. Default: `SEARCH_CACHE_BYTES`, entries live `SEARCH_CACHE_TTL_MS`.
   */
  resultCache?: { maxBytes?: number; ttlMs?: number } | false;
}

/** Default memory for cached search answers per process (an estimate of their strings). */
export const SEARCH_CACHE_BYTES = 32 * 1024 * 1024;
/** A cached answer is dropped after this even if still current, so none outlives its data for long. */
export const SEARCH_CACHE_TTL_MS = 5 * 60_000;

export type SearchWeights = {
  lexical: number;
  semantic: number;
  trigram: number;
};

/**
 * Default RRF weights. The trigram channel is a fallback: it runs only when the lexical channel
 * finds few chunks (short, misspelt or unsegmentable terms). The built-in `hash` embedder has no
 * corpus statistics and only dilutes BM25 (measured on SciFact train), so its channel is off by
 * default; model embedders get full weight. Per-request weights can turn any channel on.
 */
export function defaultSearchWeights(embedder: Pick<Embedder, 'id'>): SearchWeights {
  return { lexical: 1, semantic: embedder.id.startsWith('hash-') ? HASH_SEMANTIC_WEIGHT : 1, trigram: 0.5 };
}

/** Measured on SciFact train: any weight above 0 for the hash channel lowered nDCG@10. */
export const HASH_SEMANTIC_WEIGHT = 0;

/** The trigram fallback runs when the lexical channel finds fewer chunks than this. */
export const TRIGRAM_FALLBACK_BELOW = 10;

/**
 * Hybrid retrieval: the lexical (BM25), trigram and vector channels run independently — lexical
 * never filters semantic candidates — and are fused by reciprocal rank fusion.
 */
export function createSearchService(deps: ServiceDeps & { embedder: Embedder; searched?: (seconds: number) => void; answeredFromCache?: () => void }, options: SearchOptions = {}) {
  const { store, embedder } = deps;
  const defaults: SearchWeights = { ...defaultSearchWeights(embedder), ...options.weights };
  const depth = options.candidates ?? 100;
  const minScore = options.minScore ?? 0;
  const none: Promise<RankedHit[]> = Promise.resolve([]);
  /** An embedding provider that fails leaves the keyword channels to answer alone, rather than failing the search. */
  const keywordsOnly = (error: unknown): RankedHit[] => {
    if (!isUpstreamError(error)) throw error;
    deps.logger.warn('query embedding failed at the model provider; searching by keywords only', { provider: error.provider, transient: error.transient, error: error.message });
    return [];
  };

  const queryTimeVectors = embedder.queryTime ? createQueryTimeVectors(embedder) : null;
  const cached = options.resultCache === false ? null : answerCache(options.resultCache);
  /** Answers being computed, by key: the same search asked meanwhile waits for it rather than running again. */
  const inFlight = new Map<string, { generation: number; answer: Promise<SearchResponse> }>();

  /** Runs the channels independently and fuses them: the retrieval core, without the API's caps. */
  async function retrieve(scope: Scope, query: string, limit: number, weights: SearchWeights = defaults, audiences: Audiences = null): Promise<FusedHit[]> {
    return (await retrieval(scope, query, limit, weights, audiences)).hits;
  }

  /** `seq`: the tenant's search sequence the request read already (the lexical channel need not read it again). */
  async function retrieval(scope: Scope, query: string, limit: number, weights: SearchWeights, audiences: Audiences, redact?: (text: string) => string, seq?: number): Promise<Retrieval> {
    if (!deps.searched) return channels(scope, query, limit, weights, audiences, redact, seq);
    const started = performance.now();
    try {
      return await channels(scope, query, limit, weights, audiences, redact, seq);
    } finally {
      deps.searched((performance.now() - started) / 1000);
    }
  }

  /** Every channel filters by `audiences` inside its own query, before its top k (null: no filter). */
  async function channels(scope: Scope, query: string, limit: number, weights: SearchWeights, audiences: Audiences, redact?: (text: string) => string, seq?: number): Promise<Retrieval> {
    const k = Math.max(depth, limit);
    // What the embedder (possibly a remote provider) sees: the workspace's redaction applied, only
    // when a vector channel runs (most searches weigh it 0 and skip the patterns).
    const embedText = () => (redact ? redact(query) : query);
    // Topic words only ("how long does shipping take" → shipping); all of it if nothing is left.
    const topic = searchTerms(query);
    const { terms, pairs, grams } = topic.terms.length > 0 ? topic : { terms: boundTerms(tokenize(query)), pairs: [], grams: [] };
    const fragments = boundTerms(queryFragments(query), MAX_QUERY_FRAGMENTS);
    const { capabilities } = store.search;
    let complete = true;
    // A query-time embedder ranks the keyword channels' candidates: they run even when weighed 0.
    const queryTime = weights.semantic > 0 && embedder.queryTime === true;
    const [lexical, semantic] = await Promise.all([
      (weights.lexical > 0 || queryTime) && terms.length > 0 ? store.search.lexical(scope, { terms, pairs, grams, fragments, ...(seq === undefined ? {} : { seq }) }, k, audiences) : none,
      weights.semantic > 0 && capabilities.vectors && !queryTime
        ? embedder.embedQuery(embedText()).then(
            (v) => store.search.semantic(scope, v, k, audiences),
            (error: unknown) => ((complete = false), keywordsOnly(error)),
          )
        : none,
    ]);
    // Query-time vectors need trigram candidates only where the lexical ones are few.
    const few = lexical.length < TRIGRAM_FALLBACK_BELOW;
    const fallback = capabilities.trigram && fragments.length > 0 && ((weights.trigram > 0 && (weights.lexical === 0 || few)) || (queryTime && few));
    const trigram = fallback ? await store.search.trigram(scope, fragments, k, audiences, seq) : [];
    const vectors = queryTime && queryTimeVectors ? await queryTimeVectors.rank(embedText(), await store.search.getChunks(scope, topCandidates(lexical, trigram)), k) : semantic;
    return { hits: reciprocalRankFusion({ lexical, trigram, semantic: vectors }, weights, RRF_K), complete };
  }

  return {
    retrieve,

    /** The chunks behind retrieved hits (their documents and text), in scope only. */
    chunks: (scope: Scope, ids: readonly string[]) => store.search.getChunks(scope, ids),

    /** The chunk after a retrieved one in its document, in scope only. */
    nextChunk: (scope: Scope, chunkId: string) => store.search.nextChunk(scope, chunkId),

    /** How many chunks the workspace's index holds. */
    countChunks: (scope: Scope) => store.search.countChunks(scope),

    /**
     * Builds the lexical indexes of live workspaces holding chunks (at most `limit`: what the
     * ranker keeps), so their first searches after a start do not pay for it. Stops when `signal`
     * aborts. Returns how many were built. A store that ranks its workspaces by size has the
     * largest read first: theirs are the first searches that would cost most, while a small
     * workspace's segments read in about a millisecond.
     */
    async warm(options: { limit?: number; signal?: AbortSignal } = {}): Promise<number> {
      const limit = options.limit ?? DEFAULT_MAX_WORKSPACES;
      if (store.search.largestWorkspaces) {
        let warmed = 0;
        const live = new Map<string, Set<string>>();
        for (const { scope } of await store.search.largestWorkspaces(limit)) {
          if (options.signal?.aborted) return warmed;
          // Only live workspaces of live tenants (a deleted one keeps its rows until it is purged).
          if (!live.has(scope.tenantId)) {
            const tenant = await store.tenants.get(scope.tenantId);
            live.set(scope.tenantId, new Set(tenant ? (await store.workspaces.list(scope.tenantId)).map((w) => w.id) : []));
          }
          if (!live.get(scope.tenantId)!.has(scope.workspaceId)) continue;
          await store.search.warm(scope);
          warmed++;
        }
        return warmed;
      }
      let warmed = 0;
      for (const tenant of await store.tenants.list()) {
        for (const workspace of await store.workspaces.list(tenant.id)) {
          if (warmed >= limit || options.signal?.aborted) return warmed;
          const scope = { tenantId: tenant.id, workspaceId: workspace.id };
          if ((await store.search.countChunks(scope)) === 0) continue;
          await store.search.warm(scope);
          warmed++;
        }
      }
      return warmed;
    },

    /**
     * Validates, checks the `read` scope, then runs the search as `forCaller`, uncounted.
     * @deprecated Use `engine.api.search`: counted, rate-limited and filtered as every other door.
     */
    async search(ctx: RequestContext, input: SearchInput): Promise<Result<SearchResponse, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(searchSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      return ok(await forCaller(ctx, parsed.value));
    },

    forCaller,
    run,
  };

  /**
   * The one search every door runs (REST, MCP's `svc_search`, Dify, the library): what the caller
   * may read of its workspace — only documents of the caller's audiences (`audiencesOf`).
   */
  function forCaller(ctx: RequestContext, request: SearchRequest): Promise<SearchResponse> {
    return run(ctx.scope, request, audiencesOf(ctx), redactorFor(ctx.workspace));
  }

  /**
   * Ranked, hydrated chunks for an already validated request. `audiences`: the reader's audience
   * set (`audiencesOf(ctx)`); every channel ranks only chunks of documents it may read. Null or
   * absent: every document (internal readers). `redact`: the workspace's personal-data redaction,
   * applied to what the embedder is sent.
   */
  async function run(scope: Scope, request: SearchRequest, audiences: Audiences = null, redact?: (text: string) => string): Promise<SearchResponse> {
    const started = performance.now();
    const key = cached && cacheKey(scope, request, audiences);
    if (!cached || !key) return (await answer(scope, request, audiences, started, redact)).response;
    // Read before answering: an answer is filed under a generation no newer than its data.
    const generation = await store.search.generation(scope.tenantId);
    const hit = cached.get(key);
    const flying = inFlight.get(key);
    if (hit?.generation === generation) {
      deps.answeredFromCache?.();
      const { ranking, explain } = JSON.parse(hit.ranking) as KeptRanking;
      const results = await hydrate(scope, ranking, audiences);
      results.forEach((r, i) => (r.rank = i + 1));
      return { results, tookMs: elapsed(started), ...(explain ? { explain } : {}) };
    }
    const shared = flying?.generation === generation ? await flying.answer : null;
    if (shared) {
      deps.answeredFromCache?.();
      return { ...shared, tookMs: elapsed(started) };
    }
    const computing = answer(scope, request, audiences, started, redact, generation).then(({ response, complete }) => {
      const kept = frozen(response);
      // An answer without the vector channel (its provider failed) is not kept: the next asks again.
      if (complete) {
        const ranking = JSON.stringify({ ranking: kept.results.map(rankedOf), ...(kept.explain ? { explain: kept.explain } : {}) } satisfies KeptRanking);
        cached.set(key, { generation, ranking }, { size: 2 * (key.length + ranking.length) + CACHED_ANSWER_OVERHEAD });
      }
      return kept;
    });
    inFlight.set(key, { generation, answer: computing });
    try {
      return await computing;
    } finally {
      if (inFlight.get(key)?.answer === computing) inFlight.delete(key);
    }
  }

  async function answer(scope: Scope, request: SearchRequest, audiences: Audiences, started: number, redact?: (text: string) => string, seq?: number): Promise<{ response: SearchResponse; complete: boolean }> {
    const { query, topK } = request;
    const weights = { ...defaults, ...request.weights };
    const { hits: fused, complete } = await retrieval(scope, query, topK, weights, audiences, redact, seq);
    const k = Math.max(depth, topK);

    const top = fused.slice(0, options.reranker ? k : topK);
    const ranked = top.map(
      (hit): Ranked => ({
        chunkId: hit.chunkId,
        score: hit.score,
        lexicalRank: hit.ranks.lexical ?? null,
        semanticRank: hit.ranks.semantic ?? null,
        ...(request.explain ? { explain: explainHit(hit, weights) } : {}),
      }),
    );
    let results = await hydrate(scope, ranked, audiences);
    if (options.reranker) results = await options.reranker.rerank(query, results);
    results = results.filter((r) => r.score >= minScore).slice(0, topK);
    results.forEach((r, i) => (r.rank = i + 1));
    const tookMs = elapsed(started);
    return { response: request.explain ? { results, tookMs, explain: { weights, rrfK: RRF_K } } : { results, tookMs }, complete };
  }

  /** Results for ranked chunks, in their order (ranks left 0): each chunk's text, title and address read now. */
  async function hydrate(scope: Scope, ranked: readonly Ranked[], audiences: Audiences): Promise<SearchResult[]> {
    const chunks = new Map((await resultChunks(scope, ranked.map((r) => r.chunkId))).map((c) => [c.id, c]));
    const results: SearchResult[] = [];
    for (const r of ranked) {
      const chunk = chunks.get(r.chunkId);
      if (!chunk) continue;
      const doc = chunk.document;
      // The channels filtered already; a document whose audiences changed since is not shown.
      if (audiences !== null && (!doc || !canRead(audiences, doc.audiences))) continue;
      results.push({
        chunkId: chunk.id,
        documentId: chunk.documentId,
        // Plain text: a caller may place these in a page (stored markup and link targets removed).
        title: plainText(chunk.title),
        headingPath: chunk.headingPath.map(plainText),
        text: plainText(chunk.text),
        score: r.score,
        rank: 0,
        lexicalRank: r.lexicalRank,
        semanticRank: r.semanticRank,
        url: doc?.url ?? null,
        ...(r.explain ? { explain: r.explain } : {}),
      });
    }
    return results;
  }

  /** The chunks of a search's results with their documents' address and audiences: one read where the index offers it. */
  async function resultChunks(scope: Scope, ids: readonly string[]): Promise<ResultChunk[]> {
    if (store.search.getResultChunks) return store.search.getResultChunks(scope, ids);
    const chunks = await store.search.getChunks(scope, ids);
    const docs = new Map((await store.documents.getRefs(scope, [...new Set(chunks.map((c) => c.documentId))])).map((d) => [d.id, d]));
    return chunks.map((c) => {
      const doc = docs.get(c.documentId);
      return { ...c, document: doc ? { url: doc.url, audiences: doc.audiences } : null };
    });
  }
}

/** The keyword channels' best chunks, lexical first, at most QUERY_TIME_CANDIDATES. */
function topCandidates(lexical: readonly RankedHit[], trigram: readonly RankedHit[]): string[] {
  const ids = new Set<string>();
  for (const hit of [...lexical, ...trigram]) {
    if (ids.size === QUERY_TIME_CANDIDATES) break;
    ids.add(hit.chunkId);
  }
  return [...ids];
}

interface Retrieval {
  hits: FusedHit[];
  /** False when a channel that should have answered did not (its embedding provider failed). */
  complete: boolean;
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 100) / 100;

/** A result's place in an answer: what ranking decided, without what hydration reads. */
type Ranked = Pick<SearchResult, 'chunkId' | 'score' | 'lexicalRank' | 'semanticRank' | 'explain'>;
const rankedOf = ({ chunkId, score, lexicalRank, semanticRank, explain }: SearchResult): Ranked => ({ chunkId, score, lexicalRank, semanticRank, ...(explain ? { explain } : {}) });

interface KeptRanking {
  ranking: Ranked[];
  explain?: SearchResponse['explain'];
}

/**
 * A kept answer is its ranking, as JSON (~1 KB for ten results); a hit reads the results' chunks
 * again (one store read) instead of ranking. Most kept answers are replaced before anyone asks
 * again, yet each outlives a few young-generation collections: kept whole, every answer computed
 * moved its ~15–35 KB of texts into the old generation, whose collections then paused a busy
 * server's requests for tens of milliseconds.
 */
interface CachedAnswer {
  generation: number;
  ranking: string;
}

/** Bytes an entry holds beside its strings (the entry, its LRU slots). */
const CACHED_ANSWER_OVERHEAD = 200;

function answerCache(options: { maxBytes?: number; ttlMs?: number } = {}): LRUCache<string, CachedAnswer> | null {
  const maxSize = options.maxBytes ?? SEARCH_CACHE_BYTES;
  if (maxSize <= 0) return null;
  return new LRUCache<string, CachedAnswer>({ maxSize, ttl: options.ttlMs ?? SEARCH_CACHE_TTL_MS, ttlAutopurge: false });
}

/**
 * Where an answer is filed: the scope, the audience the results were filtered for and the
 * validated request. Null for a filter the cache cannot name (such answers are not kept).
 */
function cacheKey(scope: Scope, request: SearchRequest, audiences: Audiences): string | null {
  const audience = audiences === null ? 'all' : JSON.stringify(audiences);
  return `${scope.tenantId}\u0000${scope.workspaceId}\u0000${audience}\u0000${JSON.stringify(request)}`;
}

/** An answer being computed is shared by the callers that asked meanwhile: none may change it. */
function frozen(response: SearchResponse): SearchResponse {
  for (const r of response.results) {
    Object.freeze(r.headingPath);
    Object.freeze(r);
  }
  Object.freeze(response.results);
  return Object.freeze(response);
}

/** One fused hit's ranks and the share of its score each channel gave (weight / (k + rank)). */
function explainHit(hit: FusedHit, weights: SearchWeights) {
  const share = (channel: keyof SearchWeights) => {
    const rank = hit.ranks[channel];
    return rank === undefined || weights[channel] <= 0 ? 0 : weights[channel] / (RRF_K + rank);
  };
  return { trigramRank: hit.ranks.trigram ?? null, contributions: { lexical: share('lexical'), semantic: share('semantic'), trigram: share('trigram') } };
}

export type SearchService = ReturnType<typeof createSearchService>;
