import type { Audiences, ChunkInput, ChunkRecord, IndexInfo, LexicalQuery, LexicalSource, LexicalSourceDoc, LexicalVersion, RankedHit, ResultChunk, Scope, SearchCapabilities, SearchIndex } from '@panya/core';
import { audienceOverrides, DEFAULT_LEXICAL_WEIGHTS, encodeSegment, FRAGMENT_BM25, LexicalRanker, LexicalSegment, lexicalFields, liveMask, mergeSegments, planSegmentMerge, ScanTexts, ScopeCache, TRIGRAM_SCAN_CHUNKS, type LexicalWeights, type SegmentRead } from '@panya/core';
import type { Db, Runner, Statements } from './database.js';
import { chunkText, chunkTitle, storedChunkFields } from './chunk-text.js';
import { SCOPE_CHUNKS_UP_TO_SCAN, TRIGRAM_FOLD, TRIGRAM_TABLE, TrigramRows, trigramMatch, type ChunkText } from './trigram-table.js';
import type { VectorIndexes } from './vector-index.js';
import { COMPACT_VECTOR_TABLE, vectorBlob } from './vector-table.js';
import { segmentBytes, storedSegment } from './segment-blob.js';

export { DEFAULT_LEXICAL_WEIGHTS, type LexicalWeights };

type Row = Record<string, unknown>;

const workspacePartition = (scope: Scope) => `w:${scope.workspaceId}`;
const legacyPartition = (tenantId: string) => `l:${tenantId}`;

/**
 * A chunk row's index terms, tokenized from its text: chunk rows keep no terms (the segments hold
 * the postings), so only the paths without segments read this — the backfill, in the ingest
 * worker, and searches of a scope the backfill has not reached yet.
 */
const toLexicalDoc = (r: Row): LexicalSourceDoc => {
  const { lexicalTitle, lexicalBody } = lexicalFields(r.title as string, JSON.parse(r.heading_path as string), r.text as string);
  return { id: r.id as string, title: lexicalTitle, body: lexicalBody, ...(r.audiences != null ? { audiences: JSON.parse(r.audiences as string) as string[] } : {}) };
};

/** A chunk's document, for its audiences (`d.audiences`). */
const WITH_DOCUMENT = 'LEFT JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id';

/**
 * The condition (on chunk `c`) that keeps a restricted reader's chunks, and its parameters: inside
 * each channel's query, before its LIMIT. Null audiences: no condition.
 */
function audienceFilter(audiences: Audiences | undefined): { sql: string; params: unknown[] } {
  if (!audiences) return { sql: '', params: [] };
  return {
    sql: ` AND EXISTS (SELECT 1 FROM documents d WHERE d.tenant_id = c.tenant_id AND d.id = c.document_id
             AND EXISTS (SELECT 1 FROM json_each(d.audiences) a WHERE a.value IN (SELECT value FROM json_each(?))))`,
    params: [JSON.stringify(audiences)],
  };
}

/** What `toLexicalDoc` reads. */
const LEXICAL_COLUMNS = `c.id, ${chunkTitle('c', 'd')} AS title, c.heading_path, ${chunkText('c', 'd')} AS text, d.audiences`;

/** Chunks read per statement when a lexical index is loaded or refreshed: each read is a short synchronous step. */
const LEXICAL_PAGE = 1000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A merge whose inputs another process merged first. */
class MergeLost extends Error {}

/** What `toChunk` reads, for chunk alias `c`. */
const CHUNK_COLUMNS = (c: string, d?: string) => `${c}.id, ${c}.tenant_id, ${c}.workspace_id, ${c}.document_id, ${c}.ordinal, ${chunkTitle(c, d)} AS title, ${c}.heading_path, ${chunkText(c, d)} AS text`;

const toChunk = (r: Row): ChunkRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: (r.workspace_id as string | null) ?? null,
  documentId: r.document_id as string,
  ordinal: r.ordinal as number,
  title: r.title as string,
  headingPath: JSON.parse(r.heading_path as string),
  text: r.text as string,
});

/**
 * Core's BM25 over the workspace's lexical segments (written beside the chunks by every chunk
 * write, merged by the ingest worker; re-read when the tenant's change sequence moves), an FTS5 trigram table for fragments (optional, see
 * trigram-table.ts), and sqlite-vec (exact cosine KNN, partitioned by workspace so a filtered
 * query scans one workspace).
 */
export class SqliteSearchIndex implements SearchIndex {
  /** Vectors in the database; trigram (substring) matches when the store was opened with its table. */
  readonly capabilities: SearchCapabilities;
  private readonly ranker: LexicalRanker;
  private readonly source: LexicalSource;
  private readonly trigramRows: TrigramRows;
  /** Small workspaces' chunk texts as the trigram scan reads them, kept at their tenant's sequence (null: a transaction's view). */
  private readonly scanTexts: ScopeCache<ScanTexts> | null;

  /** `shared`: false for a transaction's view, whose uncommitted rows must not enter the cache. */
  constructor(
    private readonly db: Db,
    private readonly sql: Statements,
    private readonly run: Runner,
    private readonly weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS,
    shared = true,
    /** Approximate search for large workspaces; absent, every query scans exactly. */
    private readonly vectors?: VectorIndexes,
    /** Whether the trigram fallback searches (see trigram-table.ts); the table is kept whenever it exists. */
    trigramIndex = true,
  ) {
    this.capabilities = { trigram: trigramIndex, vectors: true };
    this.trigramRows = new TrigramRows(sql);
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
    const inScope = 'c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)';
    return {
      version: (tenantId) =>
        this.run(() => {
          const row = this.sql.get('SELECT seq, floor FROM search_versions WHERE tenant_id = ?').get(tenantId) as LexicalVersion | undefined;
          return row ?? { seq: 0, floor: 0 };
        }),
      load: async (scope) => {
        // Page by page (the workspace's chunks, then the tenant's legacy ones), each on the
        // chunks_workspace index: one read of a 100k-chunk workspace would hold the event loop
        // for seconds. Pages read at different moments are fine: the ranker re-applies every
        // change after the version it read before loading.
        const docs: LexicalSourceDoc[] = [];
        for (const workspace of ['c.workspace_id = ?', 'c.workspace_id IS NULL']) {
          const page = `SELECT c.rowid AS cursor, ${LEXICAL_COLUMNS} FROM chunks c ${WITH_DOCUMENT} WHERE c.tenant_id = ? AND ${workspace} AND c.rowid > ? ORDER BY c.rowid LIMIT ${LEXICAL_PAGE}`;
          const params = workspace.endsWith('?') ? [scope.tenantId, scope.workspaceId] : [scope.tenantId];
          for (let after = Number.MIN_SAFE_INTEGER; ; await yieldToEventLoop()) {
            const rows = await this.run(() => this.sql.get(page).all(...params, after) as Row[]);
            for (const r of rows) docs.push(toLexicalDoc(r));
            if (rows.length < LEXICAL_PAGE) break;
            after = rows.at(-1)!.cursor as number;
          }
        }
        return docs;
      },
      changes: async (scope, since) => {
        const changed = await this.run(() =>
          (this.sql.get('SELECT DISTINCT chunk_id FROM search_changes WHERE tenant_id = ? AND seq > ?').all(scope.tenantId, since) as Row[]).map((r) => r.chunk_id as string),
        );
        const upserts: LexicalSourceDoc[] = [];
        for (let at = 0; at < changed.length; at += LEXICAL_PAGE) {
          if (at > 0) await yieldToEventLoop();
          const ids = JSON.stringify(changed.slice(at, at + LEXICAL_PAGE));
          const rows = await this.run(() => this.sql.get(`SELECT ${LEXICAL_COLUMNS} FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value ${WITH_DOCUMENT} WHERE ${inScope}`).all(ids, scope.tenantId, scope.workspaceId) as Row[]);
          for (const r of rows) upserts.push(toLexicalDoc(r));
        }
        const present = new Set(upserts.map((d) => d.id));
        return { upserts, removed: changed.filter((id) => !present.has(id)) };
      },
      segments: (scope, known) => this.run(() => this.readSegments(scope, known)),
    };
  }

  /** One statement, so the segments, their deletions and the sequence are one snapshot. */
  private readSegments(scope: Scope, known: ReadonlySet<number>): SegmentRead | null {
    const inScope = 'tenant_id = ? AND (workspace_id = ? OR workspace_id IS NULL)';
    const rows = this.sql
      .get(
        `SELECT 's' AS kind, id, seq, CASE WHEN id IN (SELECT value FROM json_each(?)) THEN NULL ELSE data END AS data, NULL AS chunk_id FROM lexical_segments WHERE ${inScope}
         UNION ALL SELECT 'd', NULL, seq, NULL, chunk_id FROM lexical_deletions WHERE ${inScope}
         UNION ALL SELECT 'a', NULL, seq, audiences, chunk_id FROM lexical_audiences WHERE ${inScope}
         UNION ALL SELECT 'v', NULL, seq, NULL, NULL FROM search_versions WHERE tenant_id = ?
         UNION ALL SELECT 'p', NULL, NULL, NULL, NULL FROM (SELECT 1 FROM lexical_pending WHERE ${inScope} LIMIT 1)`,
      )
      .all(JSON.stringify([...known]), scope.tenantId, scope.workspaceId, scope.tenantId, scope.workspaceId, scope.tenantId, scope.workspaceId, scope.tenantId, scope.tenantId, scope.workspaceId) as Row[];
    const read: SegmentRead = { seq: 0, segments: [], deletions: [], audiences: [] };
    for (const r of rows) {
      if (r.kind === 'p') return null;
      if (r.kind === 'v') read.seq = r.seq as number;
      else if (r.kind === 'd') read.deletions.push({ chunkId: r.chunk_id as string, seq: r.seq as number });
      else if (r.kind === 'a') read.audiences.push({ chunkId: r.chunk_id as string, seq: r.seq as number, audiences: JSON.parse(r.data as string) as string[] });
      else read.segments.push({ id: r.id as number, seq: r.seq as number, data: r.data == null ? null : segmentBytes(r.data as Buffer) });
    }
    return read;
  }

  /** Whether the scope's chunks predate segments (the backfill has not written its segment yet). */
  private pending(tenantId: string, workspaceId: string | null): boolean {
    return this.sql.get('SELECT 1 FROM lexical_pending WHERE tenant_id = ? AND workspace_id IS ?').get(tenantId, workspaceId) !== undefined;
  }

  /** The tenant's change sequence now (0 before its first chunk; inside a writing transaction, after its chunk changes). */
  private tenantSeq(tenantId: string): number {
    return ((this.sql.get('SELECT seq FROM search_versions WHERE tenant_id = ?').get(tenantId) as Row | undefined)?.seq as number | undefined) ?? 0;
  }

  /** A document's audiences now (none without its row: internal only), for the segment of its chunks. */
  private documentAudiences(tenantId: string, documentId: string): string[] {
    const row = this.sql.get('SELECT audiences FROM documents WHERE tenant_id = ? AND id = ?').get(tenantId, documentId) as Row | undefined;
    return row?.audiences != null ? (JSON.parse(row.audiences as string) as string[]) : [];
  }

  /** The segment of chunks just written, in their transaction (after the rows, so its seq is theirs). */
  private writeSegment(tenantId: string, workspaceId: string | null, docs: LexicalSourceDoc[]) {
    if (docs.length === 0 || this.pending(tenantId, workspaceId)) return;
    this.sql
      .get('INSERT INTO lexical_segments (tenant_id, workspace_id, seq, chunks, data) VALUES (?, ?, ?, ?, ?)')
      .run(tenantId, workspaceId, this.tenantSeq(tenantId), docs.length, storedSegment(encodeSegment(docs, this.weights)));
  }

  /** Masks deleted chunks in the segments written before (after the rows are deleted, so its seq is past theirs). */
  private recordDeletions(tenantId: string, chunks: { id: string; workspace_id: string | null }[]) {
    if (chunks.length === 0) return;
    const seq = this.tenantSeq(tenantId);
    const insert = this.sql.get('INSERT INTO lexical_deletions (tenant_id, workspace_id, chunk_id, seq) VALUES (?, ?, ?, ?)');
    const pending = new Map<string | null, boolean>();
    for (const c of chunks) {
      if (!pending.has(c.workspace_id)) pending.set(c.workspace_id, this.pending(tenantId, c.workspace_id));
      if (!pending.get(c.workspace_id)) insert.run(tenantId, c.workspace_id, c.id, seq);
    }
  }

  mergeSegments(scope: Scope) {
    return this.run(() => {
      // Read and merge outside the write lock; the write checks that its inputs are still there.
      const read = this.db
        .transaction(() => ({
          segments: this.sql.get('SELECT id, seq, chunks, data FROM lexical_segments WHERE tenant_id = ? AND workspace_id = ?').all(scope.tenantId, scope.workspaceId) as Row[],
          deletions: this.sql.get('SELECT rowid AS rowid, chunk_id, seq FROM lexical_deletions WHERE tenant_id = ? AND workspace_id = ?').all(scope.tenantId, scope.workspaceId) as Row[],
          audiences: this.sql.get('SELECT rowid AS rowid, chunk_id, seq, audiences FROM lexical_audiences WHERE tenant_id = ? AND workspace_id = ?').all(scope.tenantId, scope.workspaceId) as Row[],
        }))
        .deferred();
      const deletions = read.deletions.map((d) => ({ rowid: d.rowid as number, chunkId: d.chunk_id as string, seq: d.seq as number }));
      const changes = read.audiences.map((a) => ({ rowid: a.rowid as number, chunkId: a.chunk_id as string, seq: a.seq as number, audiences: JSON.parse(a.audiences as string) as string[] }));
      const segments = read.segments.map((r) => {
        const data = segmentBytes(r.data as Buffer);
        const segment = new LexicalSegment(data);
        const live = liveMask(segment, r.seq as number, deletions);
        const audiences = audienceOverrides(segment, r.seq as number, changes);
        return { id: r.id as number, seq: r.seq as number, segment, live, audiences, chunks: segment.size, dead: live.reduce((n, l) => n + (l ? 0 : 1), 0), outdated: !LexicalSegment.current(data) };
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
      const obsolete = deletions.filter((d) => !needed(d)).map((d) => d.rowid);
      // An audience change likewise: the merged segment holds it.
      const applied = changes.filter((c) => !needed(c)).map((c) => c.rowid);
      return this.db
        .transaction(() => {
          const removed = this.sql.get('DELETE FROM lexical_segments WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify([...chosen])).changes;
          // Another process merged them meanwhile: its result stands.
          if (removed !== chosen.size) throw new MergeLost();
          if (mergedSegment.size > 0)
            this.sql.get('INSERT INTO lexical_segments (tenant_id, workspace_id, seq, chunks, data) VALUES (?, ?, ?, ?, ?)').run(scope.tenantId, scope.workspaceId, seq, mergedSegment.size, storedSegment(merged));
          this.sql.get('DELETE FROM lexical_deletions WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(obsolete));
          this.sql.get('DELETE FROM lexical_audiences WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(applied));
          return chosen.size;
        })
        .immediate();
    }).catch((error: unknown) => {
      if (error instanceof MergeLost) return 0;
      throw error;
    });
  }

  backfillSegments(limit: number) {
    return this.run(() => {
      const scopes = this.sql.get('SELECT DISTINCT tenant_id, workspace_id FROM lexical_pending LIMIT ?').all(limit) as Row[];
      for (const scope of scopes) {
        this.db
          .transaction(() => {
            const tenantId = scope.tenant_id as string;
            const workspaceId = (scope.workspace_id as string | null) ?? null;
            const docs = (this.sql.get(`SELECT ${LEXICAL_COLUMNS} FROM chunks c ${WITH_DOCUMENT} WHERE c.tenant_id = ? AND c.workspace_id IS ? ORDER BY c.rowid`).all(tenantId, workspaceId) as Row[]).map(toLexicalDoc);
            this.sql.get('DELETE FROM lexical_pending WHERE tenant_id = ? AND workspace_id IS ?').run(tenantId, workspaceId);
            this.sql.get('DELETE FROM lexical_deletions WHERE tenant_id = ? AND workspace_id IS ?').run(tenantId, workspaceId);
            // The segment holds the audiences now.
            this.sql.get('DELETE FROM lexical_audiences WHERE tenant_id = ? AND workspace_id IS ?').run(tenantId, workspaceId);
            this.writeSegment(tenantId, workspaceId, docs);
          })
          .immediate();
      }
      return scopes.length;
    });
  }

  getIndexInfo() {
    return this.run(() => this.readInfo());
  }

  private readInfo(): IndexInfo | null {
    const row = this.sql.get('SELECT embedder_id, dimension, tokenizer FROM index_info WHERE id = 1').get() as Row | undefined;
    if (!row) return null;
    return { embedderId: row.embedder_id as string, dimension: row.dimension as number, ...(row.tokenizer ? { tokenizer: row.tokenizer as string } : {}) };
  }

  setIndexInfo(info: IndexInfo) {
    return this.run(() =>
      this.db.transaction(() => {
        const current = this.readInfo();
        if (current && current.embedderId === info.embedderId && current.dimension === info.dimension) {
          // The same embedder keeps its vectors; a new tokenizer version is recorded (a query-time embedder's rebuild).
          if (info.tokenizer && info.tokenizer !== current.tokenizer) this.db.prepare('UPDATE index_info SET tokenizer = ? WHERE id = 1').run(info.tokenizer);
          return;
        }
        // Vectors of another embedder cannot stay: core decides whether a switch is allowed (ensureIndexInfo).
        if (current) this.db.exec('DROP TABLE IF EXISTS chunk_vectors');
        this.createVectorTable(info);
      }).immediate(),
    );
  }

  hasChunks() {
    return this.run(() => (this.sql.get('SELECT EXISTS (SELECT 1 FROM chunks) AS any').get() as Row).any === 1);
  }

  dropVectors() {
    return this.run(() => {
      if (this.readInfo() !== null) this.db.exec('DELETE FROM chunk_vectors');
    });
  }

  hasVectors() {
    // The vector table exists from the first `setIndexInfo` on.
    return this.run(() => this.readInfo() !== null && (this.db.prepare('SELECT EXISTS (SELECT 1 FROM chunk_vectors) AS any').get() as Row).any === 1);
  }

  reset(info: IndexInfo) {
    return this.run(() =>
      this.db.transaction(() => {
        this.db.exec('DELETE FROM chunks; DROP TABLE IF EXISTS chunk_vectors; DELETE FROM index_info; DELETE FROM lexical_segments; DELETE FROM lexical_deletions; DELETE FROM lexical_pending; DELETE FROM lexical_audiences;');
        if (this.trigramRows.exists()) this.db.exec(`DELETE FROM ${TRIGRAM_TABLE}`);
        // Every cached lexical index is older than the new floor: the next search rebuilds it.
        this.db.exec('DELETE FROM search_changes; UPDATE search_versions SET seq = seq + 1, floor = seq + 1;');
        this.createVectorTable(info);
      }).immediate(),
    );
  }

  private createVectorTable(info: IndexInfo) {
    if (!Number.isInteger(info.dimension) || info.dimension <= 0) throw new Error(`Invalid embedding dimension ${info.dimension}.`);
    this.db.exec(COMPACT_VECTOR_TABLE);
    this.db
      .prepare('INSERT INTO index_info (id, embedder_id, dimension, tokenizer) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET embedder_id = excluded.embedder_id, dimension = excluded.dimension, tokenizer = excluded.tokenizer')
      .run(info.embedderId, info.dimension, info.tokenizer ?? null);
  }

  /** Staging tables are made on demand, so a database that never rebuilds never has them. */
  private ensureRebuildTables() {
    this.db.exec(`CREATE TABLE IF NOT EXISTS index_rebuild (id INTEGER PRIMARY KEY CHECK (id = 1), embedder_id TEXT NOT NULL, dimension INTEGER NOT NULL, tokenizer TEXT);
      CREATE TABLE IF NOT EXISTS chunk_vectors_next (chunk_id TEXT PRIMARY KEY, embedding BLOB NOT NULL) WITHOUT ROWID;`);
  }

  private readRebuild(): IndexInfo | null {
    const row = this.db.prepare('SELECT embedder_id, dimension, tokenizer FROM index_rebuild WHERE id = 1').get() as Row | undefined;
    return row ? { embedderId: row.embedder_id as string, dimension: row.dimension as number, ...(row.tokenizer ? { tokenizer: row.tokenizer as string } : {}) } : null;
  }

  beginRebuild(info: IndexInfo) {
    return this.run(() =>
      this.db.transaction(() => {
        if (!Number.isInteger(info.dimension) || info.dimension <= 0) throw new Error(`Invalid embedding dimension ${info.dimension}.`);
        this.ensureRebuildTables();
        const staged = this.readRebuild();
        if (staged && staged.embedderId === info.embedderId && staged.dimension === info.dimension) return;
        this.db.exec('DELETE FROM chunk_vectors_next');
        this.db
          .prepare('INSERT INTO index_rebuild (id, embedder_id, dimension, tokenizer) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET embedder_id = excluded.embedder_id, dimension = excluded.dimension, tokenizer = excluded.tokenizer')
          .run(info.embedderId, info.dimension, info.tokenizer ?? null);
      }).immediate(),
    );
  }

  listUnstaged(after: number, limit: number) {
    return this.run(() =>
      (
        this.db
          .prepare('SELECT c.rowid AS cursor, c.* FROM chunks c WHERE c.rowid > ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors_next n WHERE n.chunk_id = c.id) ORDER BY c.rowid LIMIT ?')
          .all(after, limit) as Row[]
      ).map((r) => ({ ...toChunk(r), cursor: r.cursor as number })),
    );
  }

  countUnstaged() {
    return this.run(() => (this.db.prepare('SELECT COUNT(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors_next n WHERE n.chunk_id = c.id)').get() as Row).n as number);
  }

  stageVectors(vectors: { chunkId: string; vector: Float32Array }[]) {
    return this.run(() =>
      this.db.transaction(() => {
        const info = this.readRebuild();
        const insert = this.db.prepare('INSERT INTO chunk_vectors_next (chunk_id, embedding) VALUES (?, ?) ON CONFLICT (chunk_id) DO UPDATE SET embedding = excluded.embedding');
        for (const { chunkId, vector } of vectors) {
          if (!info || vector.length !== info.dimension) throw new Error(`Vector of ${vector.length} dimensions does not match the rebuild (${info?.dimension ?? 'none begun'}).`);
          insert.run(chunkId, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
        }
      })(),
    );
  }

  finishRebuild() {
    return this.run(() =>
      this.db.transaction(() => {
        const info = this.readRebuild();
        if (!info) throw new Error('No index rebuild was begun.');
        const missing = (this.db.prepare('SELECT COUNT(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors_next n WHERE n.chunk_id = c.id)').get() as Row).n as number;
        if (missing > 0) return null;
        this.db.exec('DROP TABLE IF EXISTS chunk_vectors');
        this.createVectorTable(info);
        // Partitions are read from the chunks now: a legacy chunk adopted during the build lands in its workspace.
        const moved = this.db
          .prepare(
            `INSERT INTO chunk_vectors (rowid, part, embedding)
             SELECT c.rowid, CASE WHEN c.workspace_id IS NULL THEN 'l:' || c.tenant_id ELSE 'w:' || c.workspace_id END, n.embedding
             FROM chunks c JOIN chunk_vectors_next n ON n.chunk_id = c.id`,
          )
          .run().changes;
        const documents = (this.db.prepare('SELECT COUNT(DISTINCT tenant_id || char(0) || document_id) AS n FROM chunks').get() as Row).n as number;
        this.db.exec('DROP TABLE chunk_vectors_next; DROP TABLE index_rebuild;');
        return { chunks: moved, documents };
      }).immediate(),
    );
  }

  replaceDocumentChunks(scope: Scope, documentId: string, chunks: ChunkInput[]) {
    return this.run(() => {
      const info = this.readInfo();
      for (const c of chunks) {
        if (c.vector && (!info || c.vector.length !== info.dimension)) throw new Error(`Vector of ${c.vector.length} dimensions does not match the index (${info?.dimension ?? 'no index info'}).`);
      }
      this.db.transaction(() => {
        this.deleteChunks(scope.tenantId, documentId);
        const part = workspacePartition(scope);
        const trigram = this.trigramRows.exists();
        const heldBefore = trigram && this.trigramRows.held(scope.tenantId, scope.workspaceId);
        const written: ChunkText[] = [];
        const stored = storedChunkFields(this.sql, scope.tenantId, documentId, chunks);
        for (const [i, c] of chunks.entries()) {
          const { rowid } = this.sql
            .get('INSERT INTO chunks (id, tenant_id, workspace_id, document_id, ordinal, title, heading_path, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING rowid')
            .get(c.id, scope.tenantId, scope.workspaceId, documentId, c.ordinal, stored[i]!.title, JSON.stringify(c.headingPath), stored[i]!.text) as { rowid: number };
          written.push({ rowid, title: c.title, text: c.text });
          if (c.vector) this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(BigInt(rowid), part, vectorBlob(c.vector));
        }
        if (trigram) this.trigramRows.wrote(scope.tenantId, scope.workspaceId, written, heldBefore);
        const audiences = this.documentAudiences(scope.tenantId, documentId);
        this.writeSegment(
          scope.tenantId,
          scope.workspaceId,
          chunks.map((c) => ({ id: c.id, title: c.lexicalTitle, body: c.lexicalBody, audiences })),
        );
      })();
    });
  }

  removeDocumentChunks(scope: Scope, documentId: string) {
    return this.run(() => this.db.transaction(() => this.deleteChunks(scope.tenantId, documentId))());
  }

  /** Every chunk of a tenant with its lexical, trigram and vector rows (tenant erasure); returns how many. */
  removeTenantChunks(tenantId: string) {
    return this.run(() =>
      this.db.transaction(() => {
        const docs = this.sql.get('SELECT document_id, COUNT(*) AS n FROM chunks WHERE tenant_id = ? GROUP BY document_id').all(tenantId) as { document_id: string; n: number }[];
        for (const doc of docs) this.deleteChunks(tenantId, doc.document_id);
        for (const table of ['lexical_segments', 'lexical_deletions', 'lexical_pending', 'lexical_audiences']) this.sql.get(`DELETE FROM ${table} WHERE tenant_id = ?`).run(tenantId);
        return docs.reduce((sum, d) => sum + d.n, 0);
      })(),
    );
  }

  /** Deletes a document's chunks in every workspace of the tenant, legacy ones included. */
  private deleteChunks(tenantId: string, documentId: string) {
    const rows = this.sql.get('SELECT rowid, id, workspace_id FROM chunks WHERE tenant_id = ? AND document_id = ?').all(tenantId, documentId) as { rowid: number; id: string; workspace_id: string | null }[];
    if (rows.length === 0) return;
    const hasVectors = this.readInfo() !== null;
    const trigram = this.trigramRows.exists();
    for (const { rowid } of rows) {
      if (trigram) this.trigramRows.remove(rowid);
      if (hasVectors) this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(BigInt(rowid));
    }
    this.sql.get('DELETE FROM chunks WHERE tenant_id = ? AND document_id = ?').run(tenantId, documentId);
    this.recordDeletions(tenantId, rows);
  }

  /** Core's BM25 over the workspace's own statistics (see LexicalRanker). */
  lexical(scope: Scope, query: LexicalQuery, limit: number, audiences: Audiences = null) {
    return this.ranker.search(scope, query, limit, audiences);
  }

  /**
   * Trigram matches for fragments the segmenter cannot split (codes, partial words, rare scripts):
   * the trigram table narrows them to the scope's chunks holding every trigram of a fragment, and
   * the fragment's occurrences in each one's text are counted and ranked by BM25 (as on Postgres).
   */
  trigram(scope: Scope, fragments: string[], limit: number, audiences: Audiences = null, seq?: number) {
    return this.run(() => {
      const usable = [...new Set(fragments.filter((f) => [...f].length >= 3).map((f) => f.toLowerCase()))];
      if (usable.length === 0 || !this.capabilities.trigram || !this.trigramRows.exists()) return [] as RankedHit[];
      const readable = audienceFilter(audiences);
      const inScope = `c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)${readable.sql}`;
      // The trigram table is one for every tenant: a fragment's trigrams match chunks of all of them, so
      // its cost grows with the server. A small workspace scans its own chunks instead (bounded by
      // TRIGRAM_SCAN_CHUNKS; the table does not hold them; their texts kept, see smallScopeTexts) and
      // counts the fragments in them with core's ranking, the same arithmetic as the statement below
      // (counting in SQL took thirty times as long as reading the rows).
      const texts = this.smallScopeTexts(scope, seq);
      if (texts) return texts.rank(usable, limit, audiences);
      const { k1, b } = FRAGMENT_BM25;
      const rows = this.sql
        .get(
          `WITH matched AS MATERIALIZED (SELECT c.id, ${TRIGRAM_FOLD}(${chunkTitle('c', 'd')} || char(10) || ${chunkText('c', 'd')}) AS body FROM ${TRIGRAM_TABLE} t JOIN chunks c ON c.rowid = t.rowid ${WITH_DOCUMENT} WHERE ${TRIGRAM_TABLE} MATCH ? AND ${inScope}),
           occurrences AS (
             SELECT m.id, length(m.body) AS len, (length(m.body) - length(replace(m.body, f.value, ''))) / length(f.value) AS occ
             FROM matched m CROSS JOIN json_each(?) f
           ),
           sized AS (SELECT *, avg(len) OVER () AS avglen FROM occurrences WHERE occ > 0)
           SELECT id, sum(occ * ${k1 + 1} / (occ + ${k1} * (1 - ${b} + ${b} * len / max(avglen, 1)))) AS score
           FROM sized GROUP BY id ORDER BY score DESC, id LIMIT ?`,
        )
        .all(trigramMatch(usable), scope.tenantId, scope.workspaceId, ...readable.params, JSON.stringify(usable), limit) as Row[];
      return rows.map((r) => ({ chunkId: r.id as string, score: r.score as number }));
    });
  }

  /**
   * A small workspace's chunks (with its tenant's legacy ones) as the trigram scan reads them, or
   * null when the workspace is larger than a scan. Kept while the tenant's search sequence stands:
   * reading and inflating every chunk's text is most of a scan's cost, and a small workspace whose
   * lexical channel finds few chunks scans on every search. `known`: the sequence the request read.
   */
  private smallScopeTexts(scope: Scope, known?: number): ScanTexts | null {
    const seq = known ?? this.tenantSeq(scope.tenantId);
    const kept = this.scanTexts?.get(scope, seq);
    if (kept) return kept;
    if (((this.sql.get(SCOPE_CHUNKS_UP_TO_SCAN).get(scope.tenantId, scope.workspaceId) as Row).n as number) > TRIGRAM_SCAN_CHUNKS) return null;
    const rows = this.sql
      .get(`SELECT c.id, ${chunkTitle('c', 'd')} AS title, ${chunkText('c', 'd')} AS text, d.audiences FROM chunks c ${WITH_DOCUMENT} WHERE c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)`)
      .all(scope.tenantId, scope.workspaceId) as Row[];
    const texts = ScanTexts.of(rows.map((r) => ({ id: r.id as string, title: r.title as string, text: r.text as string, audiences: r.audiences == null ? null : (JSON.parse(r.audiences as string) as string[]) })));
    this.scanTexts?.set(scope, seq, texts, texts.bytes);
    return texts;
  }

  semantic(scope: Scope, vector: Float32Array, limit: number, audiences: Audiences = null) {
    return this.run(() => {
      const info = this.readInfo();
      // A process still on the previous embedder after a rebuild: its query vectors cannot be compared.
      if (!info || info.dimension !== vector.length) return [];
      // Exact scan of the partition's rows (see COMPACT_VECTOR_TABLE); large workspaces answer from their graph.
      const readable = audienceFilter(audiences);
      const knn = this.sql.get(
        `SELECT c.id, vec_distance_cosine(v.embedding, ?) AS distance FROM chunk_vectors v CROSS JOIN chunks c ON c.rowid = v.rowid
         WHERE v.part = ? AND c.tenant_id = ?${readable.sql} ORDER BY distance LIMIT ?`,
      );
      const query = vectorBlob(vector);
      const exact = () => knn.all(query, workspacePartition(scope), scope.tenantId, ...readable.params, limit) as Row[];
      // One read snapshot: the graph's catch-up and the live-chunk check see the same writes. A
      // restricted reader scans exactly: the graph's nearest would be filtered after its top k.
      const own = this.vectors && !audiences ? this.db.transaction(() => this.approximate(scope, info, vector, limit) ?? exact()).deferred() : exact();
      const legacy = knn.all(query, legacyPartition(scope.tenantId), scope.tenantId, ...readable.params, limit) as Row[];
      return [...own, ...legacy]
        .sort((a, b) => (a.distance as number) - (b.distance as number))
        .slice(0, limit)
        .map((r) => ({ chunkId: r.id as string, score: 1 - (r.distance as number) }));
    });
  }

  /**
   * The workspace's graph candidates that are still its live chunks (a quarter more than asked, at
   * least 10 more, so entries of removed chunks leave enough); null when exact search must answer.
   */
  private approximate(scope: Scope, info: IndexInfo, vector: Float32Array, limit: number): Row[] | null {
    if (!this.vectors) return null;
    const version = (this.sql.get('SELECT seq, floor FROM search_versions WHERE tenant_id = ?').get(scope.tenantId) as LexicalVersion | undefined) ?? { seq: 0, floor: 0 };
    const candidates = this.vectors.candidates(scope, info, vector, limit + Math.max(10, Math.ceil(limit / 4)), version);
    if (!candidates) return null;
    const live = new Map(
      (
        this.sql
          .get('SELECT c.rowid, c.id FROM json_each(?) j CROSS JOIN chunks c ON c.rowid = j.value WHERE c.tenant_id = ? AND c.workspace_id = ?')
          .raw()
          .all(JSON.stringify(candidates.map((c) => c.rowid)), scope.tenantId, scope.workspaceId) as [number, string][]
      ).map(([rowid, id]) => [rowid, id]),
    );
    const rows: Row[] = [];
    for (const c of candidates) {
      const id = live.get(c.rowid);
      if (id !== undefined) rows.push({ id, distance: c.distance });
      if (rows.length === limit) break;
    }
    return rows;
  }

  /** Builds the workspace's vector graph now, when approximate search is on (tests, benchmarks, warm-up). */
  async buildVectorIndex(scope: Scope) {
    return this.vectors ? this.vectors.build(scope) : null;
  }

  /** Resolves when no vector graph build is running. */
  async vectorIndexesIdle() {
    await this.vectors?.idle();
  }

  getChunks(scope: Scope, ids: readonly string[]) {
    return this.run(() => {
      if (ids.length === 0) return [];
      const rows = this.sql
        // CROSS JOIN keeps SQLite on the id index: probing each id beats scanning the tenant's chunks.
        .get(`SELECT ${CHUNK_COLUMNS('c')} FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)`)
        .all(JSON.stringify(ids), scope.tenantId, scope.workspaceId) as Row[];
      return rows.map(toChunk);
    });
  }

  /** getChunks with each chunk's document (same scope) joined: one statement for a search's results. */
  getResultChunks(scope: Scope, ids: readonly string[]) {
    return this.run(() => {
      if (ids.length === 0) return [];
      const rows = this.sql
        .get(
          // The document is joined once, for the chunk's title and text too; it is the result's document only in the scope's workspace.
          `SELECT ${CHUNK_COLUMNS('c', 'd')}, iif(d.workspace_id = ?, d.id, NULL) AS doc_id, d.url AS doc_url, d.audiences AS doc_audiences FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value ${WITH_DOCUMENT} WHERE c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)`,
        )
        .all(scope.workspaceId, JSON.stringify(ids), scope.tenantId, scope.workspaceId) as Row[];
      return rows.map((r): ResultChunk => ({
        ...toChunk(r),
        document: r.doc_id == null ? null : { url: (r.doc_url as string | null) ?? null, audiences: JSON.parse(r.doc_audiences as string) as string[] },
      }));
    });
  }

  nextChunk(scope: Scope, chunkId: string) {
    return this.run(() => {
      const row = this.sql
        .get(
          `SELECT ${CHUNK_COLUMNS('n')} FROM chunks c JOIN chunks n ON n.tenant_id = c.tenant_id AND n.document_id = c.document_id AND n.ordinal = c.ordinal + 1 WHERE c.id = ? AND c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL) AND (n.workspace_id = ? OR n.workspace_id IS NULL)`,
        )
        .get(chunkId, scope.tenantId, scope.workspaceId, scope.workspaceId) as Row | undefined;
      return row ? toChunk(row) : null;
    });
  }

  warm(scope: Scope) {
    return this.ranker.warm(scope);
  }

  pruneChanges(keep: number) {
    return this.run(() =>
      this.db.transaction(() => {
        this.db.prepare('UPDATE search_versions SET floor = seq - ? WHERE seq - ? > floor').run(keep, keep);
        return this.db.prepare('DELETE FROM search_changes WHERE seq <= (SELECT v.floor FROM search_versions v WHERE v.tenant_id = search_changes.tenant_id)').run().changes;
      }).immediate(),
    );
  }

  largestWorkspaces(limit: number) {
    return this.run(() =>
      (
        this.sql
          .get('SELECT tenant_id, workspace_id, SUM(chunks) AS n FROM lexical_segments WHERE workspace_id IS NOT NULL GROUP BY tenant_id, workspace_id ORDER BY n DESC LIMIT ?')
          .all(limit) as Row[]
      ).map((r) => ({ scope: { tenantId: r.tenant_id as string, workspaceId: r.workspace_id as string }, chunks: r.n as number })),
    );
  }

  countChunks(scope: Scope) {
    return this.run(
      () => (this.sql.get('SELECT COUNT(*) AS n FROM chunks WHERE tenant_id = ? AND (workspace_id = ? OR workspace_id IS NULL)').get(scope.tenantId, scope.workspaceId) as Row).n as number,
    );
  }

  listLegacyChunks(after: number, limit: number) {
    return this.run(() =>
      (this.sql.get(`SELECT c.rowid AS cursor, ${CHUNK_COLUMNS('c')} FROM chunks c WHERE c.workspace_id IS NULL AND c.rowid > ? ORDER BY c.rowid LIMIT ?`).all(after, limit) as Row[]).map((r) => ({
        ...toChunk(r),
        cursor: r.cursor as number,
      })),
    );
  }

  adoptLegacyChunk(chunkId: string, workspaceId: string, index: Pick<ChunkInput, 'lexicalTitle' | 'lexicalBody' | 'vector'>) {
    return this.run(() =>
      this.db.transaction(() => {
        const row = this.sql.get('SELECT rowid, tenant_id, document_id FROM chunks WHERE id = ? AND workspace_id IS NULL').get(chunkId) as Row | undefined;
        if (!row) return false;
        const id = BigInt(row.rowid as number);
        const scope = { tenantId: row.tenant_id as string, workspaceId };
        this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(id);
        if (index.vector) this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(id, workspacePartition(scope), vectorBlob(index.vector));
        const trigram = this.trigramRows.exists();
        const heldBefore = trigram && this.trigramRows.held(scope.tenantId, workspaceId);
        this.sql.get('UPDATE chunks SET workspace_id = ? WHERE rowid = ?').run(workspaceId, id);
        if (trigram) this.trigramRows.adopted(row.rowid as number, scope.tenantId, workspaceId, heldBefore);
        this.recordDeletions(scope.tenantId, [{ id: chunkId, workspace_id: null }]);
        const audiences = this.documentAudiences(scope.tenantId, row.document_id as string);
        this.writeSegment(scope.tenantId, workspaceId, [{ id: chunkId, title: index.lexicalTitle, body: index.lexicalBody, audiences }]);
        return true;
      })(),
    );
  }

  removeLegacyChunk(chunkId: string) {
    return this.run(() =>
      this.db.transaction(() => {
        const row = this.sql.get('SELECT rowid, tenant_id FROM chunks WHERE id = ? AND workspace_id IS NULL').get(chunkId) as Row | undefined;
        if (!row) return;
        const id = BigInt(row.rowid as number);
        if (this.trigramRows.exists()) this.trigramRows.remove(row.rowid as number);
        this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(id);
        this.sql.get('DELETE FROM chunks WHERE rowid = ?').run(id);
        this.recordDeletions(row.tenant_id as string, [{ id: chunkId, workspace_id: null }]);
      })(),
    );
  }

  /**
   * Writes a chunk the way releases before workspaces did: no workspace metadata. Such chunks
   * match every workspace of their tenant until re-indexed. Used by migrations and tests.
   */
  insertLegacyChunk(tenantId: string, documentId: string, chunk: ChunkInput) {
    return this.run(() =>
      this.db.transaction(() => {
        const { rowid } = this.sql
          .get('INSERT INTO chunks (id, tenant_id, workspace_id, document_id, ordinal, title, heading_path, text) VALUES (?, ?, NULL, ?, ?, ?, ?, ?) RETURNING rowid')
          .get(chunk.id, tenantId, documentId, chunk.ordinal, chunk.title, JSON.stringify(chunk.headingPath), chunk.text) as { rowid: number };
        if (this.trigramRows.exists()) this.trigramRows.wroteLegacy(tenantId, [{ rowid, title: chunk.title, text: chunk.text }]);
        if (chunk.vector) this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(BigInt(rowid), legacyPartition(tenantId), vectorBlob(chunk.vector));
        this.writeSegment(tenantId, null, [{ id: chunk.id, title: chunk.lexicalTitle, body: chunk.lexicalBody, audiences: this.documentAudiences(tenantId, documentId) }]);
      })(),
    );
  }
}
