/**
 * Lexical + vector retrieval over chunks, living inside each store (FTS5 + sqlite-vec;
 * tsvector + pgvector). Every query is confined to one tenant and workspace. Chunks written
 * before workspaces existed carry `workspaceId: null` ("legacy") and match every workspace
 * of their own tenant until re-indexed.
 */
import type { Scope } from '../../ports/scope.js';

export interface ChunkInput {
  id: string;
  documentId: string;
  /** Position within the document, from 0. */
  ordinal: number;
  title: string;
  headingPath: string[];
  text: string;
  /** Core-tokenized index terms of the title (+ heading path) and the body, space-joined. */
  lexicalTitle: string;
  lexicalBody: string;
  /** Null for a query-time embedder (`Embedder.queryTime`): the chunk has no stored vector. */
  vector: Float32Array | null;
}

export interface ChunkRecord {
  id: string;
  tenantId: string;
  workspaceId: string | null;
  documentId: string;
  ordinal: number;
  title: string;
  headingPath: string[];
  text: string;
}

/** A chunk as a search shows it: with its document's address and audiences (null: no such document in the scope). */
export interface ResultChunk extends ChunkRecord {
  document: { url: string | null; audiences: string[] } | null;
}

export interface RankedHit {
  chunkId: string;
  score: number;
}

export interface LexicalQuery {
  /** Core-tokenized query terms (already stemmed and folded). */
  terms: string[];
  /** Terms adjacent in the query: chunks where they stand together rank higher (proximity). */
  pairs: [string, string][];
  /** Character trigram keys of the query's unspaced-script runs (Thai), scored beside the terms. */
  grams?: string[];
  /** Raw folded fragments for the trigram fallback (terms the segmenter could not split well). */
  fragments: string[];
  /**
   * The tenant's search sequence this request has read already (`generation`): an index cached at
   * it, or later, answers without the store reading the sequence again (one statement less).
   */
  seq?: number;
}

export interface IndexInfo {
  embedderId: string;
  dimension: number;
  /** The tokenizer (and ICU) version the lexical index was written with, when known. */
  tokenizer?: string;
}

/**
 * What a search index can do. A channel it lacks is never asked (search fuses the others) and the
 * conformance suite skips that channel's cases, naming the capability.
 */
export interface SearchCapabilities {
  /** `trigram()`: substring matches for fragments the segmenter could not split (Thai, typos). */
  readonly trigram: boolean;
  /** `semantic()` and the vector side of rebuilds: nearest chunks by cosine similarity. */
  readonly vectors: boolean;
}

/** A reader's audience set (null: reads every document). */
export type Audiences = readonly string[] | null;

export interface SearchIndex {
  readonly capabilities: SearchCapabilities;
  /** The embedder the stored vectors came from; null until the first vector is written. */
  getIndexInfo(): Promise<IndexInfo | null>;
  /**
   * Records the embedder. Another embedder's vectors are dropped: core refuses a switch while
   * vectors exist (`EmbedderMismatchError`) before it calls this.
   */
  setIndexInfo(info: IndexInfo): Promise<void>;
  /** Whether any chunk has a vector (of any tenant). */
  hasVectors(): Promise<boolean>;
  /** Whether any chunk exists (of any tenant): chunks of a query-time embedder have no vectors. */
  hasChunks(): Promise<boolean>;
  /** Drops every stored vector, keeping the chunks and the index info (a query-time embedder needs none). */
  dropVectors(): Promise<void>;
  /** Drops every chunk and vector of every tenant and adopts another embedder (full re-index). */
  reset(info: IndexInfo): Promise<void>;
  /** Replaces every chunk of a document in one transaction (never half-indexed). */
  replaceDocumentChunks(scope: Scope, documentId: string, chunks: ChunkInput[]): Promise<void>;
  removeDocumentChunks(scope: Scope, documentId: string): Promise<void>;
  /**
   * BM25 over the core-tokenized terms; higher scores are better. `audiences` (every channel):
   * only chunks of documents naming one of them are candidates — filtered inside the query,
   * before its `limit` — null or absent: every chunk (audiences/rules.ts `readerAudiences`).
   */
  lexical(scope: Scope, query: LexicalQuery, limit: number, audiences?: Audiences): Promise<RankedHit[]>;
  /**
   * Substring (trigram) matches for fragments of at least 3 characters. `seq`: the tenant's search
   * sequence the request read already (as `LexicalQuery.seq`), so a store need not read it again.
   */
  trigram(scope: Scope, fragments: string[], limit: number, audiences?: Audiences, seq?: number): Promise<RankedHit[]>;
  /** Nearest chunks by cosine similarity (score = 1 − distance). */
  semantic(scope: Scope, vector: Float32Array, limit: number, audiences?: Audiences): Promise<RankedHit[]>;
  getChunks(scope: Scope, ids: readonly string[]): Promise<ChunkRecord[]>;
  /**
   * Optional: getChunks with each chunk's document address and audiences (its document in the
   * same scope, else null) in one read — what a search shows. Without it, core reads the chunks
   * and then their documents' refs.
   */
  getResultChunks?(scope: Scope, ids: readonly string[]): Promise<ResultChunk[]>;
  /** The chunk after `chunkId` in its document (ordinal + 1) within the scope, or null: an answer's neighbour. */
  nextChunk(scope: Scope, chunkId: string): Promise<ChunkRecord | null>;
  /**
   * A number that changes with every committed write that may change what a search of the
   * tenant answers — its chunks (and their vectors), and its documents' address, public surfaces,
   * audiences (which also list the document's chunks as changed) or workspace — seen alike by every process and node on the store. Core keeps recent search
   * answers under it; one indexed read.
   */
  generation(tenantId: string): Promise<number>;
  /**
   * Writes a chunk without workspace metadata, as releases before workspaces did (imports of
   * old indexes, tests). It matches every workspace of its tenant until re-indexed.
   */
  insertLegacyChunk(tenantId: string, documentId: string, chunk: ChunkInput): Promise<void>;
  /** Legacy chunks (any tenant) after `cursor`, oldest first: the vectorize-reindex job's work list. */
  listLegacyChunks(after: number, limit: number): Promise<(ChunkRecord & { cursor: number })[]>;
  /**
   * Gives a legacy chunk its workspace: re-files its index terms and new vector under the
   * workspace. Returns false if the chunk is gone or no longer legacy.
   */
  adoptLegacyChunk(chunkId: string, workspaceId: string, index: Pick<ChunkInput, 'lexicalTitle' | 'lexicalBody' | 'vector'>): Promise<boolean>;
  /** Drops a legacy chunk whose document no longer exists. */
  removeLegacyChunk(chunkId: string): Promise<void>;
  countChunks(scope: Scope): Promise<number>;
  /**
   * Keeps each tenant's last `keep` changes: older ones are deleted and the tenant's floor rises
   * to the newest deleted one (one transaction), so an index further behind rebuilds. Returns how
   * many change rows were deleted.
   */
  pruneChanges(keep: number): Promise<number>;
  /** Builds the workspace's in-memory lexical index now rather than on its first search. */
  warm(scope: Scope): Promise<void>;
  /**
   * Workspaces by the chunks their lexical segments hold, largest first (at most `limit`; masked
   * chunks count until a merge drops them): a warm-up reads these first, as the first search of a
   * large workspace costs most (a 20,000-chunk workspace reads ~17 MB of segments). Optional.
   */
  largestWorkspaces?(limit: number): Promise<{ scope: Scope; chunks: number }[]>;
  /**
   * Merges the scope's lexical segments by the tiered policy (planSegmentMerge) in one
   * transaction, dropping masked chunks and the deletions no segment needs any more. Called by
   * the ingest worker after it writes, never by a search. Returns how many segments were merged.
   */
  mergeSegments(scope: Scope): Promise<number>;
  /** Writes the segments of up to `limit` scopes whose chunks predate segments; returns how many scopes. */
  backfillSegments(limit: number): Promise<number>;
  /**
   * A full re-embedding (`panya reindex --all`) is built beside the live vectors and swapped in at
   * once: search answers from the old vectors until then, and a run that stops midway leaves them
   * untouched. `beginRebuild` keeps vectors an interrupted run staged for the same embedder.
   */
  beginRebuild(info: IndexInfo): Promise<void>;
  /** Chunks of every tenant after `cursor` without a staged vector, in cursor order. */
  listUnstaged(after: number, limit: number): Promise<(ChunkRecord & { cursor: number })[]>;
  countUnstaged(): Promise<number>;
  stageVectors(vectors: { chunkId: string; vector: Float32Array }[]): Promise<void>;
  /**
   * In one transaction: when every chunk has a staged vector, they replace the live ones and the
   * index adopts the rebuild's embedder; otherwise (chunks written meanwhile) nothing changes and
   * the answer is null. Counts what was swapped in.
   */
  finishRebuild(): Promise<{ chunks: number; documents: number } | null>;
}

/** One chunk's index terms as the lexical source returns them (core-tokenized, space-joined). */
export interface LexicalSourceDoc {
  id: string;
  title: string;
  body: string;
  /** Its document's audiences (the filter of restricted readers); absent: `internal` only. */
  audiences?: readonly string[];
}

/**
 * Where a tenant's search index stands. `seq` grows with every committed change to the tenant's
 * chunks (in commit order, across processes and nodes); changes at or below `floor` are no longer
 * listed, so an index older than it is rebuilt.
 */
export interface LexicalVersion {
  seq: number;
  floor: number;
}

/**
 * What a store supplies so core can keep an in-memory lexical index of a workspace fresh:
 * the tenant's change sequence (one indexed read per search), every chunk in scope, and the
 * chunks changed since a sequence number.
 */
export interface LexicalSource {
  version(tenantId: string): Promise<LexicalVersion>;
  /** Every chunk of the workspace (and the tenant's legacy chunks). */
  load(scope: Scope): Promise<LexicalSourceDoc[]>;
  /**
   * Chunks of the tenant changed after `since` (a document's audiences changing lists its chunks):
   * the current state of those now in scope, and the
   * ids of the others (deleted, or moved to another workspace).
   */
  changes(scope: Scope, since: number): Promise<{ upserts: LexicalSourceDoc[]; removed: string[] }>;
  /**
   * The workspace's lexical segments (and the tenant's legacy ones), written at ingest, with the
   * deletions recorded after them and the tenant's sequence, read in one statement. Segments in
   * `known` come without their bytes (the caller holds them). Null while some chunk in scope
   * predates segments (see SearchIndex.backfillSegments): the index is then built from `load`.
   */
  segments?(scope: Scope, known: ReadonlySet<number>): Promise<SegmentRead | null>;
}

/** A workspace's stored segments as one read returns them. */
export interface SegmentRead {
  seq: number;
  segments: { id: number; seq: number; data: Uint8Array | null }[];
  /** A deletion masks its chunk in every segment written before it (lower seq). */
  deletions: { chunkId: string; seq: number }[];
  /** A change of a document's audiences, per chunk: read instead of the audiences of segments written before it. */
  audiences: { chunkId: string; seq: number; audiences: readonly string[] }[];
}
