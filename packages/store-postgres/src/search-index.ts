import type { Audiences, ChunkInput, ChunkRecord, IndexInfo, LexicalQuery, LexicalSource, LexicalSourceDoc, RankedHit, ResultChunk, Scope, SearchCapabilities, SearchIndex, SegmentRead } from '@panya/core';
import { audienceOverrides, DEFAULT_LEXICAL_WEIGHTS, encodeSegment, FRAGMENT_BM25, LexicalRanker, LexicalSegment, lexicalFields, liveMask, mergeSegments, planSegmentMerge, ScanTexts, ScopeCache, TRIGRAM_SCAN_CHUNKS, type LexicalWeights } from '@panya/core';
import { escapeLiteral } from 'pg';
import { parseCopyBinary } from './copy-binary.js';
import { chunkText, storedChunkTexts } from './chunk-text.js';
import { json, type Conn, type Names, type Row } from './database.js';

export { DEFAULT_LEXICAL_WEIGHTS, type LexicalWeights };

export interface VectorIndexOptions {
  /** `hnsw.ef_search` floor for KNN queries (raised to 2 × the requested hits). */
  efSearch?: number;
  /** HNSW build parameters (pgvector defaults: m 16, ef_construction 64). */
  m?: number;
  efConstruction?: number;
}

/** pgvector's HNSW indexes `vector` columns of up to 2,000 dimensions; larger ones are scanned exactly. */
const HNSW_MAX_DIMENSIONS = 2000;
const MAX_FRAGMENTS = 32;

const vectorLiteral = (v: Float32Array) => `[${Array.from(v).join(',')}]`;
/** A row of the segment tables as `segmentRows` reads them. */
interface SegmentRow {
  kind: string;
  id: number | null;
  seq: number | null;
  bytes: Buffer | null;
  chunkId: string | null;
}

/**
 * A segment the cache can hold: a view of a larger stream chunk would keep the whole chunk alive
 * (a 20-chunk workspace's segment inside a 64 KB socket read), beyond what the cache counts.
 */
const ownBytes = (b: Buffer) => (b.buffer.byteLength > 2 * b.length ? Buffer.from(b) : b);

/** What a store keeps for a scope larger than a trigram scan: the statement answers it. */
const LARGE = Symbol('larger than a scan');

/** A merge whose inputs another node merged first. */
class MergeLost extends Error {}

/** Escapes LIKE wildcards so a fragment only ever matches itself. */
const likePattern = (fragment: string) => `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Same expression as the trigram index, so the planner can use it (chunks in it keep their own text). */
const TRIGRAM_TEXT = `lower(c.title || E'\\n' || c.text)`;
const chunkColumns = (n: Names, d?: string) => `c.seq, c.id, c.tenant_id, c.workspace_id, c.document_id, c.ordinal, c.title, c.heading_path, ${chunkText(n, 'c', d)} AS text`;

/** What `toLexicalDoc` reads. */
const lexicalColumns = (n: Names) => `c.id, c.title, c.heading_path, ${chunkText(n, 'c')} AS text, d.audiences`;

/**
 * A chunk row's index terms, tokenized from its text: chunk rows keep no terms (the segments hold
 * the postings), so only the paths without segments read this — the backfill, in the ingest
 * worker, and searches of a scope the backfill has not reached yet.
 */
function toLexicalDoc(r: Row): LexicalSourceDoc {
  const audiences = r.audiences != null ? { audiences: r.audiences as string[] } : {};
  const { lexicalTitle, lexicalBody } = lexicalFields(r.title as string, json(r.heading_path), r.text as string);
  return { id: r.id as string, title: lexicalTitle, body: lexicalBody, ...audiences };
}

const toChunk = (r: Row): ChunkRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: (r.workspace_id as string | null) ?? null,
  documentId: r.document_id as string,
  ordinal: r.ordinal as number,
  title: r.title as string,
  headingPath: json(r.heading_path),
  text: r.text as string,
});

/**
 * Core's BM25 over the workspace's lexical segments (`bytea`, written beside the chunks by every
 * chunk write and merged by the ingest worker, so every node reads the same ones), pg_trgm for fragments, pgvector HNSW for KNN. Legacy chunks
 * (workspace_id NULL) match every workspace of their own tenant.
 */
export class PgSearchIndex implements SearchIndex {
  /** Trigram (substring) matches and vectors, both in the database. */
  readonly capabilities: SearchCapabilities = { trigram: true, vectors: true };
  private readonly ranker: LexicalRanker;
  private readonly source: LexicalSource;
  /** Small workspaces' chunk texts as the trigram scan reads them, kept at their tenant's sequence (LARGE: more than a scan; null: a transaction's view). */
  private readonly scanTexts: ScopeCache<ScanTexts | typeof LARGE> | null;

  /** `shared`: false for a transaction's view, whose uncommitted rows must not enter the cache. */
  constructor(
    private readonly db: Conn,
    private readonly n: Names,
    private readonly weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS,
    private readonly vectors: VectorIndexOptions = {},
    shared = true,
  ) {
    this.source = this.lexicalSource();
    this.ranker = new LexicalRanker(this.source, { weights, cache: shared });
    this.scanTexts = shared ? new ScopeCache() : null;
  }

  /** Drops what this store holds in the process's index cache (its store closes): the budget is the process's, not the store's. */
  release(): void {
    this.ranker.clear();
    this.scanTexts?.clear();
  }

  async generation(tenantId: string): Promise<number> {
    return (await this.source.version(tenantId)).seq;
  }

  /** The rows core's lexical index is built and refreshed from. */
  private lexicalSource(): LexicalSource {
    const inScope = 'c.tenant_id = $1 AND (c.workspace_id = $2 OR c.workspace_id IS NULL)';
    return {
      version: async (tenantId) => {
        const { rows } = await this.db.query(`SELECT seq, floor FROM ${this.n.t('search_versions')} WHERE tenant_id = $1`, [tenantId]);
        return rows[0] ? { seq: Number(rows[0].seq), floor: Number(rows[0].floor) } : { seq: 0, floor: 0 };
      },
      load: async (scope) => {
        const { rows } = await this.db.query(`SELECT ${lexicalColumns(this.n)} FROM ${this.chunks} c ${this.withDocument} WHERE ${inScope}`, [scope.tenantId, scope.workspaceId]);
        return rows.map(toLexicalDoc);
      },
      changes: async (scope, since) => {
        const { rows } = await this.db.query(
          `WITH changed AS (SELECT DISTINCT chunk_id FROM ${this.n.t('search_changes')} WHERE tenant_id = $1 AND seq > $3)
           SELECT ch.chunk_id, ${lexicalColumns(this.n)} FROM changed ch LEFT JOIN ${this.chunks} c ON c.id = ch.chunk_id AND ${inScope} ${this.withDocument}`,
          [scope.tenantId, scope.workspaceId, since],
        );
        return {
          upserts: rows.filter((r) => r.id != null).map(toLexicalDoc),
          removed: rows.filter((r) => r.id == null).map((r) => r.chunk_id as string),
        };
      },
      segments: (scope, known) => this.readSegments(scope, known),
    };
  }

  private get segmentTable() {
    return this.n.t('lexical_segments');
  }

  private get deletionTable() {
    return this.n.t('lexical_deletions');
  }

  private get pendingTable() {
    return this.n.t('lexical_pending');
  }

  private get audienceTable() {
    return this.n.t('lexical_audiences');
  }

  /** A document's audiences now (none without its row: internal only), for the segment of its chunks. */
  private async documentAudiences(tx: Conn, tenantId: string, documentId: string): Promise<string[]> {
    const { rows } = await tx.query(`SELECT audiences FROM ${this.n.t('documents')} WHERE tenant_id = $1 AND id = $2`, [tenantId, documentId]);
    return (rows[0]?.audiences as string[] | null | undefined) ?? [];
  }

  /**
   * Rows of the segment tables as (kind, id, seq, bytes, chunk id), read as a binary COPY: the
   * segments arrive as their bytes, where an ordinary query would send them as text for the driver
   * to decode into a string and the store to decode again (a cold 1,000-chunk workspace's first
   * search took 1.8 times as long). COPY takes no parameters, hence the quoted literals.
   */
  private async segmentRows(query: string): Promise<SegmentRow[]> {
    const text = (b: Buffer | null | undefined) => (b == null ? null : b.toString('utf8'));
    const number = (b: Buffer | null | undefined) => (b == null ? null : Number(b.toString('latin1')));
    return parseCopyBinary(await this.db.copyOut(query)).map(([kind, id, seq, bytes, chunkId]) => ({
      kind: text(kind)!,
      id: number(id),
      seq: number(seq),
      bytes: bytes ?? null,
      chunkId: text(chunkId),
    }));
  }

  /** One statement, so the segments, their deletions and the sequence are one snapshot. */
  private async readSegments(scope: Scope, known: ReadonlySet<number>): Promise<SegmentRead | null> {
    const tenant = escapeLiteral(scope.tenantId);
    const inScope = `tenant_id = ${tenant} AND (workspace_id = ${scope.workspaceId === null ? 'NULL' : escapeLiteral(scope.workspaceId)} OR workspace_id IS NULL)`;
    // Ids are numbers from earlier reads; anything else becomes NaN, which fails the statement.
    const skip = known.size > 0 ? `id IN (${[...known].map((id) => Math.trunc(Number(id))).join(',')})` : 'false';
    const rows = await this.segmentRows(
      `SELECT 's', id::text, seq::text, CASE WHEN ${skip} THEN NULL ELSE data END, NULL::text FROM ${this.segmentTable} WHERE ${inScope}
       UNION ALL SELECT 'd', NULL, seq::text, NULL, chunk_id FROM ${this.deletionTable} WHERE ${inScope}
       UNION ALL SELECT 'a', NULL, seq::text, convert_to(audiences::text, 'UTF8'), chunk_id FROM ${this.audienceTable} WHERE ${inScope}
       UNION ALL SELECT 'v', NULL, seq::text, NULL, NULL FROM ${this.n.t('search_versions')} WHERE tenant_id = ${tenant}
       UNION ALL (SELECT 'p', NULL, NULL, NULL, NULL FROM ${this.pendingTable} WHERE ${inScope} LIMIT 1)`,
    );
    const read: SegmentRead = { seq: 0, segments: [], deletions: [], audiences: [] };
    for (const r of rows) {
      if (r.kind === 'p') return null;
      if (r.kind === 'v') read.seq = r.seq!;
      else if (r.kind === 'd') read.deletions.push({ chunkId: r.chunkId!, seq: r.seq! });
      else if (r.kind === 'a') read.audiences.push({ chunkId: r.chunkId!, seq: r.seq!, audiences: JSON.parse(r.bytes!.toString('utf8')) as string[] });
      else read.segments.push({ id: r.id!, seq: r.seq!, data: r.bytes && ownBytes(r.bytes) });
    }
    return read;
  }

  /** The segment of chunks just written, in their transaction (after the rows, so its seq is theirs). */
  private async writeSegment(tx: Conn, tenantId: string, workspaceId: string | null, docs: LexicalSourceDoc[]) {
    if (docs.length === 0) return;
    const data = encodeSegment(docs, this.weights);
    await tx.query(
      `INSERT INTO ${this.segmentTable} (tenant_id, workspace_id, seq, chunks, data)
       SELECT $1, $2, COALESCE((SELECT seq FROM ${this.n.t('search_versions')} WHERE tenant_id = $1), 0), $3, $4
       WHERE NOT EXISTS (SELECT 1 FROM ${this.pendingTable} WHERE tenant_id = $1 AND workspace_id IS NOT DISTINCT FROM $2)`,
      [tenantId, workspaceId, docs.length, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
    );
  }

  /** Masks deleted chunks in the segments written before (after the rows are deleted, so its seq is past theirs). */
  private async recordDeletions(tx: Conn, tenantId: string, chunks: { id: string; workspace_id: string | null }[]) {
    if (chunks.length === 0) return;
    await tx.query(
      `INSERT INTO ${this.deletionTable} (tenant_id, workspace_id, chunk_id, seq)
       SELECT $1, d.workspace_id, d.id, COALESCE((SELECT seq FROM ${this.n.t('search_versions')} WHERE tenant_id = $1), 0)
       FROM unnest($2::text[], $3::text[]) AS d(id, workspace_id)
       WHERE NOT EXISTS (SELECT 1 FROM ${this.pendingTable} p WHERE p.tenant_id = $1 AND p.workspace_id IS NOT DISTINCT FROM d.workspace_id)`,
      [tenantId, chunks.map((c) => c.id), chunks.map((c) => c.workspace_id)],
    );
  }

  /** Deletes a document's chunks in every workspace of the tenant (legacy ones included), masking them in segments. */
  private async deleteDocumentChunks(tx: Conn, tenantId: string, documentId: string) {
    const { rows } = await tx.query<{ id: string; workspace_id: string | null }>(`DELETE FROM ${this.chunks} WHERE tenant_id = $1 AND document_id = $2 RETURNING id, workspace_id`, [tenantId, documentId]);
    await this.recordDeletions(tx, tenantId, rows);
  }

  async mergeSegments(scope: Scope) {
    // Read and merge outside any transaction; the write checks that its inputs are still there.
    const inWorkspace = `tenant_id = ${escapeLiteral(scope.tenantId)} AND workspace_id = ${scope.workspaceId === null ? 'NULL' : escapeLiteral(scope.workspaceId)}`;
    const rows = await this.segmentRows(
      `SELECT 's', id::text, seq::text, data, NULL::text FROM ${this.segmentTable} WHERE ${inWorkspace}
       UNION ALL SELECT 'd', id::text, seq::text, NULL, chunk_id FROM ${this.deletionTable} WHERE ${inWorkspace}
       UNION ALL SELECT 'a', id::text, seq::text, convert_to(audiences::text, 'UTF8'), chunk_id FROM ${this.audienceTable} WHERE ${inWorkspace}`,
    );
    const deletions = rows.filter((r) => r.kind === 'd').map((r) => ({ id: r.id!, chunkId: r.chunkId!, seq: r.seq! }));
    const changes = rows.filter((r) => r.kind === 'a').map((r) => ({ id: r.id!, chunkId: r.chunkId!, seq: r.seq!, audiences: JSON.parse(r.bytes!.toString('utf8')) as string[] }));
    const segments = rows
      .filter((r) => r.kind === 's')
      .map((r) => {
        const segment = new LexicalSegment(r.bytes!);
        const live = liveMask(segment, r.seq!, deletions);
        const audiences = audienceOverrides(segment, r.seq!, changes);
        return { id: r.id!, seq: r.seq!, segment, live, audiences, chunks: segment.size, dead: live.reduce((n, l) => n + (l ? 0 : 1), 0), outdated: !LexicalSegment.current(r.bytes!) };
      });
    const chosen = new Set(planSegmentMerge(segments));
    if (chosen.size === 0) return 0;
    const inputs = segments.filter((s) => chosen.has(s.id));
    const merged = mergeSegments(inputs, this.weights);
    const mergedSegment = new LexicalSegment(merged);
    const seq = Math.max(...inputs.map((s) => s.seq));
    // A deletion stays while a remaining segment written before it holds its chunk.
    const remaining = [...segments.filter((s) => !chosen.has(s.id)), { seq, segment: mergedSegment }];
    const needed = (d: { chunkId: string; seq: number }) => remaining.some((s) => s.seq < d.seq && s.segment.numberOf(d.chunkId) !== undefined);
    const obsolete = deletions.filter((d) => !needed(d)).map((d) => d.id);
    // An audience change likewise: the merged segment holds it.
    const applied = changes.filter((c) => !needed(c)).map((c) => c.id);
    try {
      return await this.db.atomic(async (tx) => {
        const removed = await tx.query(`DELETE FROM ${this.segmentTable} WHERE id = ANY($1::bigint[])`, [[...chosen]]);
        // Another node merged them meanwhile: its result stands.
        if (removed.rowCount !== chosen.size) throw new MergeLost();
        if (mergedSegment.size > 0)
          await tx.query(`INSERT INTO ${this.segmentTable} (tenant_id, workspace_id, seq, chunks, data) VALUES ($1, $2, $3, $4, $5)`, [
            scope.tenantId,
            scope.workspaceId,
            seq,
            mergedSegment.size,
            Buffer.from(merged.buffer, merged.byteOffset, merged.byteLength),
          ]);
        await tx.query(`DELETE FROM ${this.deletionTable} WHERE id = ANY($1::bigint[])`, [obsolete]);
        await tx.query(`DELETE FROM ${this.audienceTable} WHERE id = ANY($1::bigint[])`, [applied]);
        return chosen.size;
      });
    } catch (error) {
      if (error instanceof MergeLost) return 0;
      throw error;
    }
  }

  async backfillSegments(limit: number) {
    const { rows: scopes } = await this.db.query(`SELECT DISTINCT tenant_id, workspace_id FROM ${this.pendingTable} LIMIT $1`, [limit]);
    for (const scope of scopes) {
      const tenantId = scope.tenant_id as string;
      const workspaceId = (scope.workspace_id as string | null) ?? null;
      await this.db.atomic(async (tx) => {
        // The tenant's writers hold this row until they commit: none is between its check of pending and its commit.
        await tx.query(`SELECT seq FROM ${this.n.t('search_versions')} WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
        const { rows } = await tx.query(`SELECT ${lexicalColumns(this.n)} FROM ${this.chunks} c ${this.withDocument} WHERE c.tenant_id = $1 AND c.workspace_id IS NOT DISTINCT FROM $2 ORDER BY c.seq`, [tenantId, workspaceId]);
        await tx.query(`DELETE FROM ${this.pendingTable} WHERE tenant_id = $1 AND workspace_id IS NOT DISTINCT FROM $2`, [tenantId, workspaceId]);
        await tx.query(`DELETE FROM ${this.deletionTable} WHERE tenant_id = $1 AND workspace_id IS NOT DISTINCT FROM $2`, [tenantId, workspaceId]);
        // The segment holds the audiences now.
        await tx.query(`DELETE FROM ${this.audienceTable} WHERE tenant_id = $1 AND workspace_id IS NOT DISTINCT FROM $2`, [tenantId, workspaceId]);
        await this.writeSegment(tx, tenantId, workspaceId, rows.map(toLexicalDoc));
      });
    }
    return scopes.length;
  }

  private get chunks() {
    return this.n.t('chunks');
  }

  /** A chunk's document, for its audiences (`d.audiences`). */
  private get withDocument() {
    return `LEFT JOIN ${this.n.t('documents')} d ON d.tenant_id = c.tenant_id AND d.id = c.document_id`;
  }

  /**
   * The condition on chunk `c` that keeps a restricted reader's chunks (parameter `$n`: the
   * audiences), inside each channel's query before its LIMIT; empty for every reader.
   */
  private audienceFilter(audiences: Audiences | undefined, n: number, chunk = 'c'): string {
    if (!audiences) return '';
    return ` AND EXISTS (SELECT 1 FROM ${this.n.t('documents')} d WHERE d.tenant_id = ${chunk}.tenant_id AND d.id = ${chunk}.document_id AND d.audiences ?| $${n}::text[])`;
  }

  private get vectorTable() {
    return this.n.t('chunk_vectors');
  }

  getIndexInfo() {
    return this.readInfo(this.db);
  }

  private async readInfo(db: Conn): Promise<IndexInfo | null> {
    const { rows } = await db.query(`SELECT embedder_id, dimension, tokenizer FROM ${this.n.t('index_info')} WHERE id = 1`);
    const row = rows[0];
    if (!row) return null;
    return { embedderId: row.embedder_id as string, dimension: row.dimension as number, ...(row.tokenizer ? { tokenizer: row.tokenizer as string } : {}) };
  }

  /** Index-info changes create or drop tables: one node at a time. */
  private lock(tx: Conn) {
    return tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`panya:index-info:${this.n.schema}`]);
  }

  setIndexInfo(info: IndexInfo) {
    return this.db.atomic(async (tx) => {
      await this.lock(tx);
      const current = await this.readInfo(tx);
      if (current && current.embedderId === info.embedderId && current.dimension === info.dimension) {
        // The same embedder keeps its vectors; a new tokenizer version is recorded (a query-time embedder's rebuild).
        if (info.tokenizer && info.tokenizer !== current.tokenizer) await tx.query(`UPDATE ${this.n.t('index_info')} SET tokenizer = $1 WHERE id = 1`, [info.tokenizer]);
        return;
      }
      // Vectors of another embedder cannot stay: core decides whether a switch is allowed (ensureIndexInfo).
      if (current) await tx.query(`DROP TABLE IF EXISTS ${this.vectorTable}`);
      await this.createVectorTable(tx, info);
    });
  }

  async hasChunks() {
    const { rows } = await this.db.query(`SELECT EXISTS (SELECT 1 FROM ${this.chunks}) AS any`);
    return rows[0]?.any === true;
  }

  async dropVectors() {
    if (await this.readInfo(this.db)) await this.db.query(`DELETE FROM ${this.vectorTable}`);
  }

  async hasVectors() {
    // The vector table exists from the first `setIndexInfo` on.
    if (!(await this.readInfo(this.db))) return false;
    const { rows } = await this.db.query(`SELECT EXISTS (SELECT 1 FROM ${this.vectorTable}) AS any`);
    return rows[0]?.any === true;
  }

  reset(info: IndexInfo) {
    return this.db.atomic(async (tx) => {
      await this.lock(tx);
      await tx.query(`DROP TABLE IF EXISTS ${this.vectorTable}`);
      await tx.query(`TRUNCATE ${this.chunks}`);
      await tx.query(`TRUNCATE ${this.segmentTable}, ${this.deletionTable}, ${this.pendingTable}, ${this.audienceTable}`);
      // TRUNCATE fires no row triggers: move every tenant's floor past its cached indexes instead.
      await tx.query(`TRUNCATE ${this.n.t('search_changes')}`);
      await tx.query(`UPDATE ${this.n.t('search_versions')} SET seq = seq + 1, floor = seq + 1`);
      await tx.query(`DELETE FROM ${this.n.t('index_info')}`);
      await this.createVectorTable(tx, info);
    });
  }

  private async createVectorTable(tx: Conn, info: IndexInfo) {
    if (!Number.isInteger(info.dimension) || info.dimension <= 0) throw new Error(`Invalid embedding dimension ${info.dimension}.`);
    // tenant and workspace sit beside the vector so a filtered HNSW scan checks them in place.
    await tx.query(`
      CREATE TABLE ${this.vectorTable} (
        chunk_seq bigint PRIMARY KEY REFERENCES ${this.chunks}(seq) ON DELETE CASCADE,
        tenant_id text COLLATE "C" NOT NULL,
        workspace_id text COLLATE "C",
        embedding ${this.n.vector}(${info.dimension}) NOT NULL
      )`);
    await tx.query(`CREATE INDEX chunk_vectors_scope ON ${this.vectorTable}(tenant_id, workspace_id)`);
    if (info.dimension <= HNSW_MAX_DIMENSIONS) {
      const m = this.vectors.m ?? 16;
      const efConstruction = this.vectors.efConstruction ?? 64;
      await tx.query(`CREATE INDEX chunk_vectors_hnsw ON ${this.vectorTable} USING hnsw (embedding ${this.n.vectorOps}) WITH (m = ${m}, ef_construction = ${efConstruction})`);
    }
    await tx.query(
      `INSERT INTO ${this.n.t('index_info')} (id, embedder_id, dimension, tokenizer) VALUES (1, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET embedder_id = excluded.embedder_id, dimension = excluded.dimension, tokenizer = excluded.tokenizer`,
      [info.embedderId, info.dimension, info.tokenizer ?? null],
    );
  }

  private get stagingTable() {
    return this.n.t('chunk_vectors_next');
  }

  private async readRebuild(db: Conn): Promise<IndexInfo | null> {
    const { rows } = await db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${this.n.t('index_rebuild')}`]);
    if (!rows[0]?.present) return null;
    const found = await db.query(`SELECT embedder_id, dimension, tokenizer FROM ${this.n.t('index_rebuild')} WHERE id = 1`);
    const row = found.rows[0];
    return row ? { embedderId: row.embedder_id as string, dimension: row.dimension as number, ...(row.tokenizer ? { tokenizer: row.tokenizer as string } : {}) } : null;
  }

  /** The staged vectors reference their chunks: a chunk deleted during the build takes its staged vector with it. */
  beginRebuild(info: IndexInfo) {
    return this.db.atomic(async (tx) => {
      if (!Number.isInteger(info.dimension) || info.dimension <= 0) throw new Error(`Invalid embedding dimension ${info.dimension}.`);
      await this.lock(tx);
      const staged = await this.readRebuild(tx);
      if (staged && staged.embedderId === info.embedderId && staged.dimension === info.dimension) return;
      await tx.query(`DROP TABLE IF EXISTS ${this.stagingTable}`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${this.n.t('index_rebuild')} (id int PRIMARY KEY CHECK (id = 1), embedder_id text NOT NULL, dimension int NOT NULL, tokenizer text)`);
      await tx.query(`
        CREATE TABLE ${this.stagingTable} (
          chunk_seq bigint PRIMARY KEY REFERENCES ${this.chunks}(seq) ON DELETE CASCADE,
          embedding ${this.n.vector}(${info.dimension}) NOT NULL
        )`);
      await tx.query(
        `INSERT INTO ${this.n.t('index_rebuild')} (id, embedder_id, dimension, tokenizer) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET embedder_id = excluded.embedder_id, dimension = excluded.dimension, tokenizer = excluded.tokenizer`,
        [info.embedderId, info.dimension, info.tokenizer ?? null],
      );
    });
  }

  async listUnstaged(after: number, limit: number) {
    const { rows } = await this.db.query(
      `SELECT ${chunkColumns(this.n)} FROM ${this.chunks} c WHERE c.seq > $1 AND NOT EXISTS (SELECT 1 FROM ${this.stagingTable} n WHERE n.chunk_seq = c.seq) ORDER BY c.seq LIMIT $2`,
      [after, limit],
    );
    return rows.map((r) => ({ ...toChunk(r), cursor: Number(r.seq) }));
  }

  async countUnstaged() {
    const { rows } = await this.db.query(`SELECT count(*)::int AS n FROM ${this.chunks} c WHERE NOT EXISTS (SELECT 1 FROM ${this.stagingTable} n WHERE n.chunk_seq = c.seq)`);
    return rows[0]!.n as number;
  }

  async stageVectors(vectors: { chunkId: string; vector: Float32Array }[]) {
    if (vectors.length === 0) return;
    const info = await this.readRebuild(this.db);
    for (const { vector } of vectors) {
      if (!info || vector.length !== info.dimension) throw new Error(`Vector of ${vector.length} dimensions does not match the rebuild (${info?.dimension ?? 'none begun'}).`);
    }
    await this.db.query(
      `INSERT INTO ${this.stagingTable} (chunk_seq, embedding)
       SELECT c.seq, v.embedding::${this.n.vector} FROM unnest($1::text[], $2::text[]) AS v(id, embedding) JOIN ${this.chunks} c ON c.id = v.id
       ON CONFLICT (chunk_seq) DO UPDATE SET embedding = excluded.embedding`,
      [vectors.map((v) => v.chunkId), vectors.map((v) => vectorLiteral(v.vector))],
    );
  }

  finishRebuild() {
    return this.db.atomic(async (tx) => {
      await this.lock(tx);
      const info = await this.readRebuild(tx);
      if (!info) throw new Error('No index rebuild was begun.');
      // Writers of chunks wait until the swap commits, so none slips in between the check and the swap.
      await tx.query(`LOCK TABLE ${this.chunks} IN SHARE MODE`);
      const { rows } = await tx.query(`SELECT count(*)::int AS n FROM ${this.chunks} c WHERE NOT EXISTS (SELECT 1 FROM ${this.stagingTable} n WHERE n.chunk_seq = c.seq)`);
      if ((rows[0]!.n as number) > 0) return null;
      await tx.query(`DROP TABLE IF EXISTS ${this.vectorTable}`);
      await this.createVectorTable(tx, info);
      // Tenant and workspace are read from the chunks now: a legacy chunk adopted during the build lands in its workspace.
      const moved = await tx.query(
        `INSERT INTO ${this.vectorTable} (chunk_seq, tenant_id, workspace_id, embedding)
         SELECT c.seq, c.tenant_id, c.workspace_id, n.embedding FROM ${this.stagingTable} n JOIN ${this.chunks} c ON c.seq = n.chunk_seq`,
      );
      const docs = await tx.query(`SELECT count(*)::int AS n FROM (SELECT DISTINCT tenant_id, document_id FROM ${this.chunks}) d`);
      await tx.query(`DROP TABLE ${this.stagingTable}`);
      await tx.query(`DROP TABLE ${this.n.t('index_rebuild')}`);
      return { chunks: moved.rowCount ?? 0, documents: docs.rows[0]!.n as number };
    });
  }

  private async requireDimension(tx: Conn, chunks: ChunkInput[]) {
    const info = await this.readInfo(tx);
    for (const c of chunks) {
      if (c.vector && (!info || c.vector.length !== info.dimension)) throw new Error(`Vector of ${c.vector.length} dimensions does not match the index (${info?.dimension ?? 'no index info'}).`);
    }
  }

  /**
   * Whether chunks written to the workspace now go into the trigram index (`trigram`): its chunks
   * are in it all or none, and all once it is larger than a trigram search scans (its tenant's
   * legacy chunks counted, `adding` included). Crossing that size puts its earlier chunks in.
   * A search reads chunks outside the index too (see trigram()), so the rule bounds cost only.
   */
  private async trigramFor(tx: Conn, tenantId: string, workspaceId: string, adding: number): Promise<boolean> {
    // Counted only when not held: the count's bitmap scan collects every row of the scope before its LIMIT.
    const { rows } = await tx.query<{ held: boolean | null; n: number }>(
      `SELECT held, CASE WHEN held THEN 0 ELSE (SELECT count(*)::int FROM (SELECT 1 FROM ${this.chunks} WHERE tenant_id = $1 AND (workspace_id = $2 OR workspace_id IS NULL) LIMIT $3) s) END AS n
       FROM (SELECT (SELECT trigram FROM ${this.chunks} WHERE tenant_id = $1 AND workspace_id = $2 LIMIT 1) AS held) h`,
      [tenantId, workspaceId, TRIGRAM_SCAN_CHUNKS + 1],
    );
    const { held, n } = rows[0]!;
    if (held) return true;
    if (n + adding <= TRIGRAM_SCAN_CHUNKS) return false;
    await tx.query(`UPDATE ${this.chunks} c SET trigram = true, text = ${chunkText(this.n, 'c')} WHERE tenant_id = $1 AND workspace_id = $2 AND NOT trigram`, [tenantId, workspaceId]);
    return true;
  }

  /** Inserts chunks and their vectors under one workspace (null: legacy) in two statements; `trigram`: into the trigram index. */
  private async insertChunks(tx: Conn, tenantId: string, workspaceId: string | null, documentId: string, chunks: ChunkInput[], trigram: boolean) {
    const BATCH = 500;
    const texts = chunks.map((c) => c.text);
    // Chunks in the trigram index keep their own text (see chunk-text.ts).
    const stored = trigram ? texts : await storedChunkTexts(tx, this.n, tenantId, documentId, texts);
    for (let start = 0; start < chunks.length; start += BATCH) {
      const batch = chunks.slice(start, start + BATCH);
      const values: unknown[] = [tenantId, workspaceId, documentId, trigram];
      const tuples = batch.map((c, i) => {
        values.push(c.id, c.ordinal, c.title, JSON.stringify(c.headingPath), stored[start + i]);
        const p = values.length - 5;
        return `($${p + 1}, $1, $2, $3, $${p + 2}, $${p + 3}, $${p + 4}::jsonb, $${p + 5}, $4)`;
      });
      const { rows } = await tx.query<{ id: string; seq: string }>(
        `INSERT INTO ${this.chunks} (id, tenant_id, workspace_id, document_id, ordinal, title, heading_path, text, trigram)
         VALUES ${tuples.join(', ')} RETURNING id, seq`,
        values,
      );
      const seqs = new Map(rows.map((r) => [r.id, r.seq]));
      // Chunks of a query-time embedder have no vector.
      const embedded = batch.filter((c): c is ChunkInput & { vector: Float32Array } => c.vector !== null);
      if (embedded.length === 0) continue;
      await tx.query(
        `INSERT INTO ${this.vectorTable} (chunk_seq, tenant_id, workspace_id, embedding)
         SELECT v.seq, $1::text, $2::text, v.embedding::${this.n.vector} FROM unnest($3::bigint[], $4::text[]) AS v(seq, embedding)`,
        [tenantId, workspaceId, embedded.map((c) => seqs.get(c.id)), embedded.map((c) => vectorLiteral(c.vector))],
      );
    }
  }

  replaceDocumentChunks(scope: Scope, documentId: string, chunks: ChunkInput[]) {
    return this.db.atomic(async (tx) => {
      await this.requireDimension(tx, chunks);
      // Every workspace of the tenant, legacy chunks included: the document has one home now.
      await this.deleteDocumentChunks(tx, scope.tenantId, documentId);
      if (chunks.length > 0) await this.insertChunks(tx, scope.tenantId, scope.workspaceId, documentId, chunks, await this.trigramFor(tx, scope.tenantId, scope.workspaceId, chunks.length));
      const audiences = chunks.length > 0 ? await this.documentAudiences(tx, scope.tenantId, documentId) : [];
      await this.writeSegment(
        tx,
        scope.tenantId,
        scope.workspaceId,
        chunks.map((c) => ({ id: c.id, title: c.lexicalTitle, body: c.lexicalBody, audiences })),
      );
    });
  }

  removeDocumentChunks(scope: Scope, documentId: string) {
    return this.db.atomic((tx) => this.deleteDocumentChunks(tx, scope.tenantId, documentId));
  }

  /** Core's BM25 over the workspace's own statistics (see LexicalRanker). */
  lexical(scope: Scope, query: LexicalQuery, limit: number, audiences: Audiences = null): Promise<RankedHit[]> {
    return this.ranker.search(scope, query, limit, audiences);
  }

  /**
   * Substring matches for fragments the segmenter cannot split (codes, partial words, rare
   * scripts), found through the pg_trgm index; ranked by BM25-style saturation of occurrences.
   */
  async trigram(scope: Scope, fragments: string[], limit: number, audiences: Audiences = null, seq?: number): Promise<RankedHit[]> {
    const usable = [...new Set(fragments.map((f) => f.toLowerCase()).filter((f) => [...f].length >= 3))].slice(0, MAX_FRAGMENTS);
    if (usable.length === 0 || limit <= 0) return [];
    // A small workspace's chunks are counted here, with core's ranking (the statement's arithmetic),
    // from texts kept while its tenant's sequence stands: most searches of a small workspace take
    // this fallback, and scanning its rows in the database was most of their database time.
    const texts = await this.smallScopeTexts(scope, seq);
    if (texts) return texts.rank(usable, limit, audiences);
    const values: unknown[] = [scope.tenantId, scope.workspaceId, limit, usable, ...(audiences ? [[...audiences]] : [])];
    const patterns = usable.map((f) => {
      values.push(likePattern(f));
      return values.length;
    });
    // Chunks in the trigram index (large workspaces', legacy ones) through it, each pattern a LIKE
    // the index can answer; the others, a small workspace's, through the scope index, each text
    // built once (its document's source joined, not looked up per pattern) and then matched against
    // every pattern (the index holds only large workspaces: trigramFor).
    const inScope = `c.tenant_id = $1 AND (c.workspace_id = $2 OR c.workspace_id IS NULL)${this.audienceFilter(audiences, 5)}`;
    const { rows } = await this.db.query<{ id: string; score: number }>(
      `WITH scanned AS MATERIALIZED (
         SELECT c.id, lower(c.title || E'\\n' || ${chunkText(this.n, 'c', 's')}) AS body FROM ${this.chunks} c
         LEFT JOIN ${this.n.t('documents')} s ON s.id = c.document_id AND s.tenant_id = c.tenant_id
         WHERE NOT c.trigram AND ${inScope}
       ),
       matched AS MATERIALIZED (
         SELECT c.id, ${TRIGRAM_TEXT} AS body FROM ${this.chunks} c
         WHERE c.trigram AND ${inScope} AND (${patterns.map((p) => `${TRIGRAM_TEXT} LIKE lower($${p})`).join(' OR ')})
         UNION ALL SELECT id, body FROM scanned WHERE body LIKE ANY (ARRAY[${patterns.map((p) => `lower($${p})`).join(', ')}])
       ),
       occurrences AS (
         SELECT m.id, length(m.body) AS len, (length(m.body) - length(replace(m.body, lower(f), ''))) / length(f) AS occ
         FROM matched m CROSS JOIN unnest($4::text[]) AS f
       ),
       sized AS (SELECT *, avg(len) OVER () AS avglen FROM occurrences WHERE occ > 0)
       SELECT id, sum(occ * ${FRAGMENT_BM25.k1 + 1} / (occ + ${FRAGMENT_BM25.k1} * (1 - ${FRAGMENT_BM25.b} + ${FRAGMENT_BM25.b} * len / greatest(avglen, 1))))::float8 AS score
       FROM sized GROUP BY id ORDER BY score DESC, id LIMIT $3`,
      values,
    );
    return rows.map((r) => ({ chunkId: r.id, score: Number(r.score) }));
  }

  /**
   * A small workspace's chunks (with its tenant's legacy ones) as the trigram scan reads them, or
   * null when the scope holds more than a scan (or in a transaction's view, whose rows are not
   * kept). `known`: the sequence the request read.
   */
  private async smallScopeTexts(scope: Scope, known?: number): Promise<ScanTexts | null> {
    if (!this.scanTexts) return null;
    const seq = known ?? (await this.source.version(scope.tenantId)).seq;
    const kept = this.scanTexts.get(scope, seq);
    if (kept) return kept === LARGE ? null : kept;
    // One statement: the scope's size, counted to one past a scan in its index, and its chunks only if no larger.
    const { rows } = await this.db.query(
      `SELECT s.n, c.id, c.title, ${chunkText(this.n, 'c', 'd')} AS text, d.audiences
       FROM (SELECT count(*)::int AS n FROM (SELECT 1 FROM ${this.chunks} k WHERE k.tenant_id = $1 AND (k.workspace_id = $2 OR k.workspace_id IS NULL) LIMIT ${TRIGRAM_SCAN_CHUNKS + 1}) x) s
       LEFT JOIN ${this.chunks} c ON s.n <= ${TRIGRAM_SCAN_CHUNKS} AND c.tenant_id = $1 AND (c.workspace_id = $2 OR c.workspace_id IS NULL)
       ${this.withDocument}`,
      [scope.tenantId, scope.workspaceId],
    );
    if ((rows[0]!.n as number) > TRIGRAM_SCAN_CHUNKS) {
      this.scanTexts.set(scope, seq, LARGE, 64);
      return null;
    }
    const texts = ScanTexts.of(rows.filter((r) => r.id !== null).map((r) => ({ id: r.id as string, title: r.title as string, text: r.text as string, audiences: (r.audiences as string[] | null) ?? null })));
    this.scanTexts.set(scope, seq, texts, texts.bytes);
    return texts;
  }

  /**
   * KNN by cosine distance. Iterative HNSW scans (pgvector 0.8) keep walking the graph until
   * enough rows pass the tenant/workspace filter; relaxed order is re-sorted here.
   */
  semantic(scope: Scope, vector: Float32Array, limit: number, audiences: Audiences = null): Promise<RankedHit[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.db.atomic(async (tx) => {
      const info = await this.readInfo(tx);
      // A process still on the previous embedder after a rebuild: its query vectors cannot be compared.
      if (!info || info.dimension !== vector.length) return [];
      const efSearch = Math.min(1000, Math.max(this.vectors.efSearch ?? 40, limit * 2));
      await tx.query(`SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${efSearch}`);
      const { rows } = await tx.query<{ id: string; distance: number }>(
        `WITH nearest AS MATERIALIZED (
           SELECT v.chunk_seq, v.embedding ${this.n.cosine} $3::${this.n.vector} AS distance
           FROM ${this.vectorTable} v
           WHERE v.tenant_id = $1 AND (v.workspace_id = $2 OR v.workspace_id IS NULL)${audiences ? ` AND EXISTS (SELECT 1 FROM ${this.chunks} c WHERE c.seq = v.chunk_seq${this.audienceFilter(audiences, 5)})` : ''}
           ORDER BY v.embedding ${this.n.cosine} $3::${this.n.vector}
           LIMIT $4
         )
         SELECT c.id, n.distance FROM nearest n JOIN ${this.chunks} c ON c.seq = n.chunk_seq
         ORDER BY n.distance, c.id`,
        [scope.tenantId, scope.workspaceId, vectorLiteral(vector), limit, ...(audiences ? [[...audiences]] : [])],
      );
      return rows.map((r) => ({ chunkId: r.id, score: 1 - Number(r.distance) }));
    });
  }

  async getChunks(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query(
      `SELECT ${chunkColumns(this.n)} FROM ${this.chunks} c WHERE c.tenant_id = $1 AND (c.workspace_id = $2 OR c.workspace_id IS NULL) AND c.id = ANY($3::text[])`,
      [scope.tenantId, scope.workspaceId, ids],
    );
    return rows.map(toChunk);
  }

  /** getChunks with each chunk's document (same scope) joined: one statement for a search's results. */
  async getResultChunks(scope: Scope, ids: readonly string[]): Promise<ResultChunk[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query(
      // The document is joined once, for the chunk's text too; it is the result's document only in the scope's workspace.
      `SELECT ${chunkColumns(this.n, 'd')}, CASE WHEN d.workspace_id = $2 THEN d.id END AS doc_id, d.url AS doc_url, d.audiences AS doc_audiences FROM ${this.chunks} c
       LEFT JOIN ${this.n.t('documents')} d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
       WHERE c.tenant_id = $1 AND (c.workspace_id = $2 OR c.workspace_id IS NULL) AND c.id = ANY($3::text[])`,
      [scope.tenantId, scope.workspaceId, ids],
    );
    return rows.map((r) => ({ ...toChunk(r), document: r.doc_id == null ? null : { url: (r.doc_url as string | null) ?? null, audiences: json(r.doc_audiences) } }));
  }

  async nextChunk(scope: Scope, chunkId: string) {
    const { rows } = await this.db.query(
      `SELECT ${chunkColumns(this.n)} FROM ${this.chunks} p JOIN ${this.chunks} c ON c.tenant_id = p.tenant_id AND c.document_id = p.document_id AND c.ordinal = p.ordinal + 1
       WHERE p.id = $3 AND p.tenant_id = $1 AND (p.workspace_id = $2 OR p.workspace_id IS NULL) AND (c.workspace_id = $2 OR c.workspace_id IS NULL)`,
      [scope.tenantId, scope.workspaceId, chunkId],
    );
    return rows[0] ? toChunk(rows[0]) : null;
  }

  warm(scope: Scope) {
    return this.ranker.warm(scope);
  }

  /** Raising a floor waits for the tenant's writers (they hold its row), so every change at or below it is committed. */
  pruneChanges(keep: number) {
    return this.db.atomic(async (tx) => {
      await tx.query(`UPDATE ${this.n.t('search_versions')} SET floor = seq - $1 WHERE seq - $1 > floor`, [keep]);
      const { rowCount } = await tx.query(
        `DELETE FROM ${this.n.t('search_changes')} c USING ${this.n.t('search_versions')} v WHERE v.tenant_id = c.tenant_id AND c.seq <= v.floor`,
      );
      return rowCount ?? 0;
    });
  }

  async largestWorkspaces(limit: number) {
    const { rows } = await this.db.query(
      `SELECT tenant_id, workspace_id, SUM(chunks)::int AS n FROM ${this.segmentTable} WHERE workspace_id IS NOT NULL GROUP BY tenant_id, workspace_id ORDER BY n DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ scope: { tenantId: r.tenant_id as string, workspaceId: r.workspace_id as string }, chunks: r.n as number }));
  }

  async countChunks(scope: Scope) {
    const { rows } = await this.db.query(`SELECT count(*)::int AS n FROM ${this.chunks} WHERE tenant_id = $1 AND (workspace_id = $2 OR workspace_id IS NULL)`, [
      scope.tenantId,
      scope.workspaceId,
    ]);
    return rows[0]!.n as number;
  }

  async listLegacyChunks(after: number, limit: number) {
    const { rows } = await this.db.query(`SELECT ${chunkColumns(this.n)} FROM ${this.chunks} c WHERE c.workspace_id IS NULL AND c.seq > $1 ORDER BY c.seq LIMIT $2`, [after, limit]);
    return rows.map((r) => ({ ...toChunk(r), cursor: Number(r.seq) }));
  }

  adoptLegacyChunk(chunkId: string, workspaceId: string, index: Pick<ChunkInput, 'lexicalTitle' | 'lexicalBody' | 'vector'>) {
    return this.db.atomic(async (tx) => {
      const legacy = await tx.query<{ tenant_id: string }>(`SELECT tenant_id FROM ${this.chunks} WHERE id = $1 AND workspace_id IS NULL`, [chunkId]);
      if (!legacy.rows[0]) return false;
      // The workspace's rule covers it now (as a legacy chunk it counted in the workspace's size already).
      const trigram = await this.trigramFor(tx, legacy.rows[0].tenant_id, workspaceId, 0);
      const { rows } = await tx.query<{ seq: string; tenant_id: string; document_id: string }>(
        `UPDATE ${this.chunks} SET workspace_id = $2, trigram = $3 WHERE id = $1 AND workspace_id IS NULL RETURNING seq, tenant_id, document_id`,
        [chunkId, workspaceId, trigram],
      );
      const row = rows[0];
      if (!row) return false;
      await this.recordDeletions(tx, row.tenant_id, [{ id: chunkId, workspace_id: null }]);
      const audiences = await this.documentAudiences(tx, row.tenant_id, row.document_id);
      await this.writeSegment(tx, row.tenant_id, workspaceId, [{ id: chunkId, title: index.lexicalTitle, body: index.lexicalBody, audiences }]);
      if (!index.vector) {
        await tx.query(`DELETE FROM ${this.vectorTable} WHERE chunk_seq = $1`, [row.seq]);
        return true;
      }
      await tx.query(
        `INSERT INTO ${this.vectorTable} (chunk_seq, tenant_id, workspace_id, embedding) VALUES ($1, $2, $3, $4::${this.n.vector})
         ON CONFLICT (chunk_seq) DO UPDATE SET workspace_id = excluded.workspace_id, embedding = excluded.embedding`,
        [row.seq, row.tenant_id, workspaceId, vectorLiteral(index.vector)],
      );
      return true;
    });
  }

  removeLegacyChunk(chunkId: string) {
    return this.db.atomic(async (tx) => {
      const { rows } = await tx.query<{ id: string; tenant_id: string; workspace_id: null }>(`DELETE FROM ${this.chunks} WHERE id = $1 AND workspace_id IS NULL RETURNING id, tenant_id, workspace_id`, [chunkId]);
      if (rows[0]) await this.recordDeletions(tx, rows[0].tenant_id, rows);
    });
  }

  insertLegacyChunk(tenantId: string, documentId: string, chunk: ChunkInput) {
    return this.db.atomic(async (tx) => {
      await this.requireDimension(tx, [chunk]);
      await this.insertChunks(tx, tenantId, null, documentId, [chunk], true);
      // It counts in every workspace of its tenant: those it makes larger than a scan go into the index.
      await tx.query(
        `UPDATE ${this.chunks} c SET trigram = true, text = ${chunkText(this.n, 'c')} WHERE tenant_id = $1 AND NOT trigram AND workspace_id IN (
           SELECT workspace_id FROM ${this.chunks} WHERE tenant_id = $1 AND workspace_id IS NOT NULL GROUP BY workspace_id
           HAVING count(*) + (SELECT count(*) FROM ${this.chunks} WHERE tenant_id = $1 AND workspace_id IS NULL) > $2)`,
        [tenantId, TRIGRAM_SCAN_CHUNKS],
      );
      await this.writeSegment(tx, tenantId, null, [{ id: chunk.id, title: chunk.lexicalTitle, body: chunk.lexicalBody, audiences: await this.documentAudiences(tx, tenantId, documentId) }]);
    });
  }
}
