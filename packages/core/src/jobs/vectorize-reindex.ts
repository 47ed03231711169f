import { ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import { embedInBatches } from '../search/embedder-batches.js';
import { embeddingText, lexicalFields } from '../knowledge/ingest.js';
import type { JobContext } from './types.js';

export type VectorizeReindexSummary = {
  job: 'vectorize-reindex';
  /** Legacy chunks looked at in this run. */
  processed: number;
  /** Re-embedded and filed under their document's workspace. */
  adopted: number;
  /** Dropped because their document no longer exists. */
  removed: number;
  /** Where the next run continues. */
  cursor: number;
  /** True when no legacy chunk is left. */
  done: boolean;
  /** Workspaces whose chunks predate lexical segments, given theirs in this run. */
  segmentsBackfilled: number;
  elapsedMs: number;
};

const STATE_KEY = 'vectorize-reindex';
const BATCH = 64;
const SEGMENT_BACKFILL_SCOPES = 200;

/**
 * Re-embeds legacy chunks (written before workspaces, without workspace metadata) and files
 * them under their document's workspace, so they stop matching every workspace. Time-bounded
 * by `budgetMs` and resumable: the cursor is stored after every batch.
 */
export async function vectorizeReindex(ctx: JobContext, now: Date): Promise<Result<VectorizeReindexSummary, PanyaError>> {
  const { store, embedder } = ctx;
  const started = performance.now();
  const budgetMs = ctx.budgetMs ?? 50_000;
  const state = await store.jobs.getState(STATE_KEY);
  let cursor = typeof state?.cursor === 'number' ? state.cursor : 0;
  let processed = 0;
  let adopted = 0;
  let removed = 0;
  let done = false;
  await ctx.ensureIndex();

  // At least one batch per run, so every run makes progress however small its budget.
  do {
    const chunks = await store.search.listLegacyChunks(cursor, BATCH);
    if (chunks.length === 0) {
      done = true;
      break;
    }
    const owners = await Promise.all(chunks.map((c) => store.documents.locate(c.tenantId, c.documentId)));
    const live = chunks.filter((_, i) => owners[i]);
    const { embeddings: vectors } = embedder.queryTime ? { embeddings: [] } : await embedInBatches(embedder, live.map((c) => embeddingText(c.title, c.headingPath, c.text)));
    for (const [i, chunk] of chunks.entries()) {
      const owner = owners[i];
      if (!owner) {
        await store.search.removeLegacyChunk(chunk.id);
        removed++;
      } else {
        const vector = vectors[live.indexOf(chunk)] ?? null;
        if (await store.search.adoptLegacyChunk(chunk.id, owner.workspaceId, { vector, ...lexicalFields(chunk.title, chunk.headingPath, chunk.text) })) adopted++;
      }
      processed++;
    }
    cursor = chunks.at(-1)!.cursor;
    await store.jobs.setState(STATE_KEY, { cursor }, now.toISOString());
  } while (performance.now() - started < budgetMs);
  // Scopes written before lexical segments (an upgrade) get theirs here, a few per run: until then their searches build from rows.
  const segmentsBackfilled = await store.search.backfillSegments(SEGMENT_BACKFILL_SCOPES);
  return ok({ job: 'vectorize-reindex', processed, adopted, removed, cursor, done, segmentsBackfilled, elapsedMs: Math.round(performance.now() - started) });
}
