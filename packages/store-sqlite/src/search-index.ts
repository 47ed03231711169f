import { createHash } from 'node:crypto';
import type { ChunkInput, ChunkRecord, IndexInfo, LexicalQuery, RankedHit, Scope, SearchIndex } from '@panya/core';
import { EmbedderMismatchError } from '@panya/core';
import type { Db, Runner, Statements } from './database.js';

type Row = Record<string, unknown>;

/**
 * Lexical ranking: bm25() column weights (scope is never scored), and the weight of the
 * proximity boost — the bm25 of the query's adjacent term pairs as phrases, added to the
 * term score. Defaults tuned on SciFact's train split.
 */
export interface LexicalWeights {
  title: number;
  body: number;
  proximity: number;
}

export const DEFAULT_LEXICAL_WEIGHTS: LexicalWeights = { title: 3, body: 1, proximity: 0.15 };

const hashToken = (kind: string, id: string) => kind + createHash('sha256').update(id).digest('hex').slice(0, 24);
/** One FTS token per workspace (and one per tenant for legacy chunks); lowercase hex survives case folding. */
const workspaceToken = (scope: Scope) => hashToken('w', `${scope.tenantId}/${scope.workspaceId}`);
const legacyToken = (tenantId: string) => hashToken('l', tenantId);
const workspacePartition = (scope: Scope) => `w:${scope.workspaceId}`;
const legacyPartition = (tenantId: string) => `l:${tenantId}`;

/** Quotes a term for FTS5 so user text can never be read as query syntax. */
const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;

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
 * FTS5 (BM25 over core-tokenized text, plus a trigram table for fragments) and sqlite-vec
 * (exact cosine KNN, partitioned by workspace so a filtered query scans one workspace).
 */
export class SqliteSearchIndex implements SearchIndex {
  constructor(
    private readonly db: Db,
    private readonly sql: Statements,
    private readonly run: Runner,
    private readonly weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS,
  ) {}

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
        if (current && current.embedderId === info.embedderId && current.dimension === info.dimension) return;
        if (current) {
          const vectors = (this.db.prepare('SELECT COUNT(*) AS n FROM chunk_vectors').get() as Row).n as number;
          if (vectors > 0) throw new EmbedderMismatchError(current, info);
          this.db.exec('DROP TABLE IF EXISTS chunk_vectors');
        }
        this.createVectorTable(info);
      }).immediate(),
    );
  }

  reset(info: IndexInfo) {
    return this.run(() =>
      this.db.transaction(() => {
        this.db.exec("DELETE FROM chunks; DELETE FROM chunks_fts; DELETE FROM chunks_trigram; DROP TABLE IF EXISTS chunk_vectors; DELETE FROM index_info;");
        this.createVectorTable(info);
      }).immediate(),
    );
  }

  private createVectorTable(info: IndexInfo) {
    if (!Number.isInteger(info.dimension) || info.dimension <= 0) throw new Error(`Invalid embedding dimension ${info.dimension}.`);
    this.db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(part TEXT PARTITION KEY, embedding float[${info.dimension}] distance_metric=cosine)`);
    this.db
      .prepare('INSERT INTO index_info (id, embedder_id, dimension, tokenizer) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET embedder_id = excluded.embedder_id, dimension = excluded.dimension, tokenizer = excluded.tokenizer')
      .run(info.embedderId, info.dimension, info.tokenizer ?? null);
  }

  replaceDocumentChunks(scope: Scope, documentId: string, chunks: ChunkInput[]) {
    return this.run(() => {
      const info = this.readInfo();
      for (const c of chunks) {
        if (!info || c.vector.length !== info.dimension) throw new Error(`Vector of ${c.vector.length} dimensions does not match the index (${info?.dimension ?? 'no index info'}).`);
      }
      this.db.transaction(() => {
        this.deleteChunks(scope.tenantId, documentId);
        const token = workspaceToken(scope);
        const part = workspacePartition(scope);
        for (const c of chunks) {
          const { rowid } = this.sql
            .get('INSERT INTO chunks (id, tenant_id, workspace_id, document_id, ordinal, title, heading_path, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING rowid')
            .get(c.id, scope.tenantId, scope.workspaceId, documentId, c.ordinal, c.title, JSON.stringify(c.headingPath), c.text) as { rowid: number };
          const id = BigInt(rowid);
          this.sql.get('INSERT INTO chunks_fts (rowid, scope, title, body) VALUES (?, ?, ?, ?)').run(id, token, c.lexicalTitle, c.lexicalBody);
          this.sql.get('INSERT INTO chunks_trigram (rowid, text) VALUES (?, ?)').run(id, `${c.title}\n${c.text}`.toLowerCase());
          this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(id, part, c.vector);
        }
      })();
    });
  }

  removeDocumentChunks(scope: Scope, documentId: string) {
    return this.run(() => this.db.transaction(() => this.deleteChunks(scope.tenantId, documentId))());
  }

  /** Deletes a document's chunks in every workspace of the tenant, legacy ones included. */
  private deleteChunks(tenantId: string, documentId: string) {
    const rows = this.sql.get('SELECT rowid FROM chunks WHERE tenant_id = ? AND document_id = ?').all(tenantId, documentId) as { rowid: number }[];
    if (rows.length === 0) return;
    const hasVectors = this.readInfo() !== null;
    for (const { rowid } of rows) {
      const id = BigInt(rowid);
      this.sql.get('DELETE FROM chunks_fts WHERE rowid = ?').run(id);
      this.sql.get('DELETE FROM chunks_trigram WHERE rowid = ?').run(id);
      if (hasVectors) this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(id);
    }
    this.sql.get('DELETE FROM chunks WHERE tenant_id = ? AND document_id = ?').run(tenantId, documentId);
  }

  lexical(scope: Scope, query: LexicalQuery, limit: number) {
    return this.run(() => {
      if (query.terms.length === 0) return [];
      const scopeMatch = `scope:(${quote(workspaceToken(scope))} OR ${quote(legacyToken(scope.tenantId))})`;
      const rank = this.sql.get(
        `SELECT c.id, bm25(chunks_fts, 0, ?, ?) AS score FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid
         WHERE chunks_fts MATCH ? AND c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)
         ORDER BY score LIMIT ?`,
      );
      const run = (match: string) =>
        // bm25() is negative (lower is better); expose higher-is-better scores.
        (rank.all(this.weights.title, this.weights.body, `${scopeMatch} AND {title body}:(${match})`, scope.tenantId, scope.workspaceId, limit) as Row[]).map(
          (r) => ({ chunkId: r.id as string, score: -(r.score as number) }),
        );
      const hits = run(query.terms.map(quote).join(' OR '));
      const pairs = [...new Set(query.pairs.map(([a, b]) => quote(`${a} ${b}`)))];
      if (pairs.length === 0 || this.weights.proximity === 0 || hits.length === 0) return hits;
      // Chunks where query terms stand next to each other rank higher (every phrase hit is a term hit).
      const near = new Map(run(pairs.join(' OR ')).map((h) => [h.chunkId, h.score]));
      return hits.map((h) => ({ chunkId: h.chunkId, score: h.score + this.weights.proximity * (near.get(h.chunkId) ?? 0) })).sort((a, b) => b.score - a.score);
    });
  }

  /** Trigram matches for fragments the segmenter cannot split (codes, partial words, rare scripts). */
  trigram(scope: Scope, fragments: string[], limit: number) {
    return this.run(() => {
      const usable = fragments.filter((f) => [...f].length >= 3);
      if (usable.length === 0) return [] as RankedHit[];
      const rows = this.sql
        .get(
          `SELECT c.id, bm25(chunks_trigram) AS score FROM chunks_trigram t JOIN chunks c ON c.rowid = t.rowid
           WHERE chunks_trigram MATCH ? AND c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)
           ORDER BY score LIMIT ?`,
        )
        .all(usable.map(quote).join(' OR '), scope.tenantId, scope.workspaceId, limit) as Row[];
      return rows.map((r) => ({ chunkId: r.id as string, score: -(r.score as number) }));
    });
  }

  semantic(scope: Scope, vector: Float32Array, limit: number) {
    return this.run(() => {
      if (!this.readInfo()) return [];
      const knn = this.sql.get(
        `SELECT c.id, v.distance FROM chunk_vectors v JOIN chunks c ON c.rowid = v.rowid
         WHERE v.embedding MATCH ? AND v.k = ? AND v.part = ? AND c.tenant_id = ?`,
      );
      const own = knn.all(vector, limit, workspacePartition(scope), scope.tenantId) as Row[];
      const legacy = knn.all(vector, limit, legacyPartition(scope.tenantId), scope.tenantId) as Row[];
      return [...own, ...legacy]
        .sort((a, b) => (a.distance as number) - (b.distance as number))
        .slice(0, limit)
        .map((r) => ({ chunkId: r.id as string, score: 1 - (r.distance as number) }));
    });
  }

  getChunks(scope: Scope, ids: readonly string[]) {
    return this.run(() => {
      if (ids.length === 0) return [];
      const rows = this.sql
        // CROSS JOIN keeps SQLite on the id index: probing each id beats scanning the tenant's chunks.
        .get('SELECT c.* FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)')
        .all(JSON.stringify(ids), scope.tenantId, scope.workspaceId) as Row[];
      return rows.map(toChunk);
    });
  }

  countChunks(scope: Scope) {
    return this.run(
      () => (this.sql.get('SELECT COUNT(*) AS n FROM chunks WHERE tenant_id = ? AND (workspace_id = ? OR workspace_id IS NULL)').get(scope.tenantId, scope.workspaceId) as Row).n as number,
    );
  }

  listLegacyChunks(after: number, limit: number) {
    return this.run(() =>
      (this.sql.get('SELECT rowid AS cursor, * FROM chunks WHERE workspace_id IS NULL AND rowid > ? ORDER BY rowid LIMIT ?').all(after, limit) as Row[]).map((r) => ({
        ...toChunk(r),
        cursor: r.cursor as number,
      })),
    );
  }

  adoptLegacyChunk(chunkId: string, workspaceId: string, index: Pick<ChunkInput, 'lexicalTitle' | 'lexicalBody' | 'vector'>) {
    return this.run(() =>
      this.db.transaction(() => {
        const row = this.sql.get('SELECT rowid, tenant_id FROM chunks WHERE id = ? AND workspace_id IS NULL').get(chunkId) as Row | undefined;
        if (!row) return false;
        const id = BigInt(row.rowid as number);
        const scope = { tenantId: row.tenant_id as string, workspaceId };
        this.sql.get('DELETE FROM chunks_fts WHERE rowid = ?').run(id);
        this.sql.get('INSERT INTO chunks_fts (rowid, scope, title, body) VALUES (?, ?, ?, ?)').run(id, workspaceToken(scope), index.lexicalTitle, index.lexicalBody);
        this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(id);
        this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(id, workspacePartition(scope), index.vector);
        this.sql.get('UPDATE chunks SET workspace_id = ? WHERE rowid = ?').run(workspaceId, id);
        return true;
      })(),
    );
  }

  removeLegacyChunk(chunkId: string) {
    return this.run(() =>
      this.db.transaction(() => {
        const row = this.sql.get('SELECT rowid FROM chunks WHERE id = ? AND workspace_id IS NULL').get(chunkId) as Row | undefined;
        if (!row) return;
        const id = BigInt(row.rowid as number);
        this.sql.get('DELETE FROM chunks_fts WHERE rowid = ?').run(id);
        this.sql.get('DELETE FROM chunks_trigram WHERE rowid = ?').run(id);
        this.sql.get('DELETE FROM chunk_vectors WHERE rowid = ?').run(id);
        this.sql.get('DELETE FROM chunks WHERE rowid = ?').run(id);
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
        const id = BigInt(rowid);
        this.sql.get('INSERT INTO chunks_fts (rowid, scope, title, body) VALUES (?, ?, ?, ?)').run(id, legacyToken(tenantId), chunk.lexicalTitle, chunk.lexicalBody);
        this.sql.get('INSERT INTO chunks_trigram (rowid, text) VALUES (?, ?)').run(id, `${chunk.title}\n${chunk.text}`.toLowerCase());
        this.sql.get('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(id, legacyPartition(tenantId), chunk.vector);
      })(),
    );
  }
}
