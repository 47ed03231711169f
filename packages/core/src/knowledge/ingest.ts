import type { Embedder } from '../search/ports/embedder.js';
import type { Contextualizer } from '../answers/ports/generator.js';
import type { ChunkInput } from '../search/ports/search-index.js';
import { DOCUMENT_STATUSES, type DocumentStatus, type IndexingClaim, type Scope } from '../ports/store.js';
import { chunkMarkdown } from './chunker.js';
import { lexicalWork } from '../search/lexical-index.js';
import { tokenize, TOKENIZER_VERSION } from '../text/tokenizer.js';
import { EmbedderMismatchError, isStoreBusy } from '../errors.js';
import { embedInBatches } from '../search/embedder-batches.js';
import { embeddingText } from '../search/embedding-text.js';
import type { ServiceDeps } from '../context.js';
import { MAX_INGEST_CLAIM_BYTES } from '../bounds.js';

/** Usage meter of one contextualization call at ingest. */
export const CONTEXTUALIZATION_METER = 'contextualization';

export interface IngestOptions {
  /** Documents claimed (and embedded together) per round. */
  batchSize?: number;
  /** How long a claim holds a document before another worker may take it over; renewed while the work runs. */
  leaseMs?: number;
  /**
   * Who this worker is, written on its leases: the node (stable across restarts, e.g. the host),
   * this process's incarnation, and the worker within it. At start, `reclaim()` returns what
   * earlier incarnations of the node left `indexing` to the queue at once.
   */
  holder?: { node: string; incarnation: string; worker?: string };
}

/** Chunks embedded and staged together by `rebuildIndex`. */
const REBUILD_BATCH = 64;
/** Catch-up passes for chunks written during a rebuild before it gives up (and keeps what it staged). */
const REBUILD_ROUNDS = 5;

/** Between tries of an ingest write the store gave up on for a held lock (each try waited the store's own lock wait). */
const LOCK_RETRY_PAUSE_MS = 25;

/** Ingest leases last this long unless renewed: a crashed holder's documents are free again within it. */
export const INGEST_LEASE_MS = 30_000;

export { embeddingText };

/** The index terms of a chunk: title and heading path (weighted higher), and body. */
export function lexicalFields(title: string, headingPath: string[], text: string): { lexicalTitle: string; lexicalBody: string } {
  lexicalWork.chunksTokenized++;
  return {
    lexicalTitle: tokenize([title, ...headingPath.filter((h) => h !== title)].join('\n')).join(' '),
    lexicalBody: tokenize(text).join(' '),
  };
}

interface PreparedDoc {
  claim: IndexingClaim;
  scope: Scope;
  chunks: Omit<ChunkInput, 'vector'>[];
  /** Context prefixes (one per chunk) when contextualization is on. */
  prefixes?: string[];
}

function readableError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500) || 'Unknown ingest error.';
}

/**
 * The ingest pipeline: claim queued documents, chunk (markdown-aware), tokenize once for the
 * lexical index, embed, and replace the document's chunks and status in one transaction —
 * so a document is never half-indexed, and a crash leaves it queued under an expiring lease.
 */
export interface IngestDeps extends ServiceDeps {
  embedder: Embedder;
  /** Optional: a context prefix per chunk, embedded with it; each call is billable usage. */
  contextualizer?: Contextualizer;
  recordUsage?: (tenantId: string, workspaceId: string, calls: number, data: Record<string, unknown>) => Promise<void>;
}

export function createIngestService(deps: IngestDeps, options: IngestOptions = {}) {
  const { store, clock, ids, logger, embedder } = deps;
  const batchSize = options.batchSize ?? 32;
  const leaseMs = options.leaseMs ?? INGEST_LEASE_MS;
  const holder = options.holder ? `${options.holder.node}/${options.holder.incarnation}/${options.holder.worker ?? 'main'}` : `anonymous/${globalThis.crypto.randomUUID()}/main`;

  /** Keeps the claimed documents' leases alive while they are worked on (a long embedding, a big document). */
  function renewWhileWorking(claimed: readonly string[]): () => void {
    const timer = setInterval(() => {
      const until = new Date(clock.now().getTime() + leaseMs).toISOString();
      // A renewal that met a held lock is tried again at the next tick, well within the lease.
      store.documents.renewLeases(holder, claimed, until).catch((error: unknown) => (isStoreBusy(error) ? logger.debug : logger.warn)('ingest lease renewal failed', { error: readableError(error) }));
    }, Math.max(1_000, Math.floor(leaseMs / 3)));
    timer.unref?.();
    return () => clearInterval(timer);
  }
  let indexChecked = false;

  /**
   * Ingest's writes wait for the lock for as long as a claim lasts, however long the store's own
   * wait: they are background work no request waits on, they share one lock with uploads, other
   * workers' commits and other processes, and a low-priority thread can miss it for seconds on a
   * busy machine. A round given up for a lock wait would leave its documents leased and unindexed
   * until the lease expires, its work thrown away.
   */
  async function patiently<T>(write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + leaseMs;
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (!isStoreBusy(error) || Date.now() >= deadline) throw error;
        logger.debug('ingest waits for the write lock', { error: readableError(error) });
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_PAUSE_MS));
      }
    }
  }

  /** The index must hold vectors of this embedder only; an empty index adopts it. */
  async function ensureIndexInfo(): Promise<void> {
    if (indexChecked) return;
    const info = await store.search.getIndexInfo();
    const configured = { embedderId: embedder.id, dimension: embedder.dimension, tokenizer: TOKENIZER_VERSION };
    if (info && (info.embedderId !== configured.embedderId || info.dimension !== configured.dimension)) {
      // Vectors of two embedders cannot be compared: a switch is only free while no vector is stored
      // and, towards an embedder whose vectors are stored, while no chunk lacks one.
      if ((await store.search.hasVectors()) || (!embedder.queryTime && (await store.search.hasChunks()))) throw new EmbedderMismatchError(info, configured);
      await store.search.setIndexInfo(configured);
    } else if (!info) {
      await store.search.setIndexInfo(configured);
    } else if (info.tokenizer && info.tokenizer !== TOKENIZER_VERSION) {
      // Search still works, but new and old index terms may differ (e.g. Thai after a Node upgrade).
      logger.warn('the lexical index was written by another tokenizer version; run `panya reindex --all`', { indexed: info.tokenizer, running: TOKENIZER_VERSION });
    }
    indexChecked = true;
  }

  function prepare(claim: IndexingClaim): PreparedDoc {
    const { doc } = claim;
    const pieces = chunkMarkdown(doc.contentMd);
    const chunks = (pieces.length > 0 ? pieces : [{ index: 0, headingPath: [], text: doc.title, tokenCount: 0 }]).map((piece) => ({
      id: ids.next('chk'),
      documentId: doc.id,
      ordinal: piece.index,
      title: doc.title,
      headingPath: piece.headingPath,
      text: piece.text,
      ...lexicalFields(doc.title, piece.headingPath, piece.text),
    }));
    return { claim, scope: { tenantId: doc.tenantId, workspaceId: doc.workspaceId }, chunks };
  }

  /** Asks the contextualizer for each chunk's prefix and records the billable calls. */
  async function contextualize(doc: PreparedDoc): Promise<void> {
    if (!deps.contextualizer || doc.prefixes) return;
    const prefixes: string[] = [];
    let tokens = 0;
    for (const c of doc.chunks) {
      const { prefix, usage } = await deps.contextualizer.contextualize({ documentTitle: c.title, documentText: doc.claim.doc.contentMd, chunkText: c.text });
      prefixes.push(prefix.trim());
      tokens += usage.inputTokens + usage.outputTokens;
    }
    doc.prefixes = prefixes;
    await deps.recordUsage?.(doc.scope.tenantId, doc.scope.workspaceId, doc.chunks.length, { documentId: doc.claim.doc.id, contextualizer: deps.contextualizer.id, tokens });
  }

  async function embed(prepared: PreparedDoc[]): Promise<(Float32Array | null)[][]> {
    for (const p of prepared) await contextualize(p);
    // A query-time embedder's vectors are computed by the searches that weigh them, never stored.
    if (embedder.queryTime) return prepared.map((p) => p.chunks.map(() => null));
    const texts = prepared.flatMap((p) => p.chunks.map((c, i) => [p.prefixes?.[i], embeddingText(c.title, c.headingPath, c.text)].filter(Boolean).join('\n')));
    const { embeddings: vectors, usage } = await embedInBatches(embedder, texts);
    if (usage) logger.debug('embedded chunks', { embedder: embedder.id, chunks: texts.length, tokens: usage.tokens });
    let at = 0;
    return prepared.map((p) => p.chunks.map(() => vectors[at++]!));
  }

  async function commit(doc: PreparedDoc, vectors: (Float32Array | null)[]): Promise<void> {
    const at = clock.now().toISOString();
    await patiently(() =>
      store.transaction(async (tx) => {
        const chunks = doc.chunks.map((c, i) => ({ ...c, vector: vectors[i]! }));
        // Write chunks only while the claim is current; an edit meanwhile leaves the document queued.
        const current = await tx.documents.completeIndexing(doc.scope, doc.claim.doc.id, doc.claim.revision, { status: 'indexed' }, at);
        if (current) await tx.search.replaceDocumentChunks(doc.scope, doc.claim.doc.id, chunks);
      }),
    );
  }

  async function fail(doc: PreparedDoc | IndexingClaim, error: unknown): Promise<void> {
    const claim = 'claim' in doc ? doc.claim : doc;
    const scope = { tenantId: claim.doc.tenantId, workspaceId: claim.doc.workspaceId };
    const message = readableError(error);
    logger.warn('ingest failed', { documentId: claim.doc.id, error: message });
    await patiently(() => store.documents.completeIndexing(scope, claim.doc.id, claim.revision, { status: 'failed', error: message }, clock.now().toISOString()));
  }

  /**
   * Merges the written workspaces' lexical segments (each commit wrote one) by the tiered policy,
   * here in the ingest worker so no search ever does. A merge that fails leaves the segments as
   * they were (one transaction); the next batch tries again.
   */
  async function mergeSegments(scopes: Scope[]): Promise<void> {
    const seen = new Set<string>();
    for (const scope of scopes) {
      const key = `${scope.tenantId}\u0000${scope.workspaceId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        // A merge can fill the next tier: a few rounds at most (one per tier).
        for (let round = 0; round < 8 && (await store.search.mergeSegments(scope)) > 0; round++);
      } catch (error) {
        // Merging is optional work: behind a held lock it waits for the next batch.
        if (isStoreBusy(error)) continue;
        logger.warn('segment merge failed', { tenantId: scope.tenantId, workspaceId: scope.workspaceId, error: readableError(error) });
      }
    }
  }

  /** Indexes claimed documents; a failing batch is retried document by document to isolate the bad one. */
  async function indexClaims(claims: IndexingClaim[]): Promise<string[]> {
    const prepared: PreparedDoc[] = [];
    for (const claim of claims) {
      try {
        prepared.push(prepare(claim));
      } catch (error) {
        await fail(claim, error);
      }
    }
    let vectors: (Float32Array | null)[][] | null = null;
    try {
      vectors = prepared.length > 0 ? await embed(prepared) : [];
    } catch (error) {
      if (prepared.length === 1) await fail(prepared[0]!, error);
    }
    if (vectors) {
      for (const [i, doc] of prepared.entries()) await commit(doc, vectors[i]!);
    } else if (prepared.length > 1) {
      for (const doc of prepared) {
        try {
          const [own] = await embed([doc]);
          await commit(doc, own!);
        } catch (error) {
          await fail(doc, error);
        }
      }
    }
    await mergeSegments(prepared.map((p) => p.scope));
    return claims.map((c) => c.doc.id);
  }

  return {
    ensureIndexInfo,

    /**
     * Documents by status in one workspace, every live workspace of one tenant, or of all tenants:
     * what every worker of every process did, counted in the store (`panya reindex` waits on it).
     */
    async statusCounts(where?: { tenantId: string; workspaceId?: string }): Promise<Record<DocumentStatus, number>> {
      if (where?.workspaceId) return store.documents.countByStatus({ tenantId: where.tenantId, workspaceId: where.workspaceId });
      const totals: Record<DocumentStatus, number> = { pending: 0, indexing: 0, indexed: 0, failed: 0 };
      const tenantIds = where ? [where.tenantId] : (await store.tenants.list()).map((t) => t.id);
      for (const tenantId of tenantIds) {
        for (const workspace of await store.workspaces.list(tenantId)) {
          const counts = await store.documents.countByStatus({ tenantId, workspaceId: workspace.id });
          for (const status of DOCUMENT_STATUSES) totals[status] += counts[status];
        }
      }
      return totals;
    },

    /** Claims and indexes one batch of queued documents; returns their ids (empty when the queue is empty). */
    async processBatch(only?: readonly string[]): Promise<string[]> {
      await ensureIndexInfo();
      // The lease counts from the try that claims, however long the lock was waited for. A request
      // indexing its own documents (`only`, `?wait=true` in-process) keeps the store's lock wait.
      const claim = () => {
        const now = clock.now();
        return store.documents.claimForIndexing({
          now: now.toISOString(),
          leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
          limit: batchSize,
          maxBytes: MAX_INGEST_CLAIM_BYTES,
          ...(only ? { ids: only } : {}),
          holder,
        });
      };
      const claims = only ? await claim() : await patiently(claim);
      if (claims.length === 0) return [];
      const stop = renewWhileWorking(claims.map((c) => c.doc.id));
      try {
        return await indexClaims(claims);
      } finally {
        stop();
      }
    },

    /** Returns to the queue what earlier incarnations of this node were indexing when they stopped (a crash, kill -9). */
    async reclaim(): Promise<number> {
      if (!options.holder) return 0;
      const { node, incarnation } = options.holder;
      const count = await store.documents.reclaimLeases(node, `${node}/${incarnation}/`);
      if (count > 0) logger.info('reclaimed documents an earlier run of this node left indexing', { node, count });
      return count;
    },

    /** Queues every document of a tenant for re-indexing; each keeps its chunks until its new ones replace them. */
    async reindexTenant(tenantId: string): Promise<number> {
      await ensureIndexInfo();
      return store.documents.requeueAll(clock.now().toISOString(), tenantId);
    },

    /**
     * Re-embeds every chunk of every tenant with the configured embedder beside the live vectors,
     * then swaps them in at once (the way to switch embedders): search answers from the old ones
     * until the new ones are complete, and a run that stops midway leaves them intact (the next run
     * resumes). Chunks written meanwhile are caught up before the swap. When chunks themselves
     * must change (another tokenizer, or model-written context prefixes), every document is then
     * queued again and replaced one by one.
     */
    async rebuildIndex(onProgress?: (done: number, total: number) => void): Promise<{ chunks: number; documents: number; requeued: number }> {
      const before = await store.search.getIndexInfo();
      if (embedder.queryTime) {
        // Nothing to embed ahead of searches: the index adopts the embedder and keeps no vector.
        await store.search.setIndexInfo({ embedderId: embedder.id, dimension: embedder.dimension, tokenizer: TOKENIZER_VERSION });
        await store.search.dropVectors();
        indexChecked = true;
        let chunks = 0;
        let documents = 0;
        for (const tenant of await store.tenants.list()) {
          for (const workspace of await store.workspaces.list(tenant.id)) {
            const scope = { tenantId: tenant.id, workspaceId: workspace.id };
            chunks += await store.search.countChunks(scope);
            documents += (await store.documents.countByStatus(scope)).indexed;
          }
        }
        onProgress?.(chunks, chunks);
        const requeued = before?.tokenizer !== undefined && before.tokenizer !== TOKENIZER_VERSION ? await store.documents.requeueAll(clock.now().toISOString()) : 0;
        return { chunks, documents, requeued };
      }
      await store.search.beginRebuild({ embedderId: embedder.id, dimension: embedder.dimension, tokenizer: TOKENIZER_VERSION });
      let done = 0;
      let total = await store.search.countUnstaged();
      onProgress?.(0, total);
      for (let round = 0; round < REBUILD_ROUNDS; round++) {
        for (let after = 0; ; ) {
          const batch = await store.search.listUnstaged(after, REBUILD_BATCH);
          if (batch.length === 0) break;
          const { embeddings: vectors } = await embedInBatches(embedder, batch.map((c) => embeddingText(c.title, c.headingPath, c.text)));
          await store.search.stageVectors(batch.map((c, i) => ({ chunkId: c.id, vector: vectors[i]! })));
          after = batch.at(-1)!.cursor;
          done += batch.length;
          total = Math.max(total, done);
          onProgress?.(done, total);
        }
        const swapped = await store.search.finishRebuild();
        if (swapped) {
          indexChecked = true;
          const rechunk = Boolean(deps.contextualizer) || (before?.tokenizer !== undefined && before.tokenizer !== TOKENIZER_VERSION);
          const requeued = rechunk ? await store.documents.requeueAll(clock.now().toISOString()) : 0;
          return { ...swapped, requeued };
        }
        total = done + (await store.search.countUnstaged());
      }
      throw new Error(`Documents kept changing during the rebuild; nothing was swapped. Run it again (the vectors made so far are kept).`);
    },

    /** Drains the queue: used by the CLI, the evaluation harness and tests. */
    async drain(): Promise<number> {
      let total = 0;
      for (let batch = await this.processBatch(); batch.length > 0; batch = await this.processBatch()) total += batch.length;
      return total;
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
