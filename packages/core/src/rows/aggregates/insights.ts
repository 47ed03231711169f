import type { Page } from '../../ports/page.js';
import type { Scope } from '../../ports/scope.js';
import type { ChunkFeedback, FeedbackFilter, FeedbackRecord, FeedbackStore, GapRequest, GapSnapshot, QuestionLogStore, QuestionRecord, StoredGaps } from '../../insights/ports/insights.js';
import { page, type Row } from '../codec.js';
import type { SqlDriver } from '../driver.js';
import { GAP_QUESTION } from '../kit-migrations.js';
import { sql, type Sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { FEEDBACK, FEEDBACK_CITATIONS, GAP_SNAPSHOTS, QUESTION_LOG, type FeedbackCitationRow } from '../tables.js';

const inScope = (scope: Scope) => sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`;
/** An aggregate's time as the API writes it (Postgres hands back a Date, SQLite the stored text). */
const isoOf = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

export class SqlQuestionLog implements QuestionLogStore {
  private readonly rows: SqlTable<QuestionRecord>;
  private readonly gaps: SqlTable<StoredGaps & { tenantId: string; workspaceId: string }>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, QUESTION_LOG);
    this.gaps = new SqlTable(driver, GAP_SNAPSHOTS);
  }

  async record(question: QuestionRecord) {
    await this.rows.insert(question);
  }

  mark(scope: Scope, target: { messageId: string } | { conversationId: string }, flags: { thumbsDown?: true; handedOff?: true }) {
    const which = 'messageId' in target ? sql`message_id = ${target.messageId}` : sql`conversation_id = ${target.conversationId}`;
    const sets = this.rows.sets(flags);
    if (sets.length === 0) return Promise.resolve(0);
    return this.rows.run(sql`UPDATE ${this.rows.ref} SET ${sql.join(sets, ', ')} WHERE ${inScope(scope)} AND ${which}`);
  }

  byMessage(scope: Scope, messageId: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE ${inScope(scope)} AND message_id = ${messageId} ORDER BY id DESC LIMIT 1`);
  }

  async documentVersions(scope: Scope, documentIds: readonly string[]) {
    if (documentIds.length === 0) return new Map<string, string>();
    const { rows } = await this.rows.driver.query(sql`SELECT id, updated_at FROM ${sql.table('documents')} WHERE ${inScope(scope)} AND id ${sql.in(documentIds)}`);
    return new Map(rows.map((r: Row) => [String(r.id), isoOf(r.updated_at)]));
  }

  gapQuestions(scope: Scope, window: { since: string; until: string }, options: { after?: Pick<QuestionRecord, 'createdAt' | 'id'>; limit: number }) {
    const since = this.rows.value('createdAt', window.since);
    const until = this.rows.value('createdAt', window.until);
    const after = options.after ? sql` AND (created_at > ${this.rows.value('createdAt', options.after.createdAt)} OR (created_at = ${this.rows.value('createdAt', options.after.createdAt)} AND id > ${options.after.id}))` : sql.empty;
    return this.rows.all(
      sql`SELECT * FROM ${this.rows.ref} WHERE ${inScope(scope)} AND ${sql.raw(GAP_QUESTION)} AND created_at >= ${since} AND created_at < ${until}${after} ORDER BY created_at, id LIMIT ${options.limit}`,
    );
  }

  async getGaps(scope: Scope, period: string): Promise<StoredGaps | null> {
    const row = await this.gaps.one(sql`SELECT * FROM ${this.gaps.ref} WHERE ${inScope(scope)} AND period = ${period}`);
    if (!row) return null;
    const { tenantId: _t, workspaceId: _w, ...stored } = row;
    return stored;
  }

  async requestGaps(scope: Scope, period: string, at: string, staleBefore: string) {
    const requested = this.gaps.value('requestedAt', at);
    const stale = this.gaps.value('computedAt', staleBefore);
    // An earlier pending request keeps its place in the queue.
    await this.gaps.run(
      sql`INSERT INTO ${this.gaps.ref} (tenant_id, workspace_id, period, questions, clusters, requested_at) VALUES (${scope.tenantId}, ${scope.workspaceId}, ${period}, 0, ${this.gaps.value('clusters', [])}, ${requested})
          ON CONFLICT (tenant_id, workspace_id, period) DO UPDATE SET requested_at = COALESCE(${this.gaps.ref}.requested_at, excluded.requested_at)
          WHERE ${this.gaps.ref}.computed_at IS NULL OR ${this.gaps.ref}.computed_at < ${stale}`,
    );
  }

  async pendingGapRequests(limit: number, tenantId?: string): Promise<GapRequest[]> {
    const tenant = tenantId === undefined ? sql.empty : sql` AND tenant_id = ${tenantId}`;
    const rows = await this.gaps.all(sql`SELECT * FROM ${this.gaps.ref} WHERE requested_at IS NOT NULL${tenant} ORDER BY requested_at LIMIT ${limit}`);
    return rows.map((r) => ({ tenantId: r.tenantId, workspaceId: r.workspaceId, period: r.period, requestedAt: r.requestedAt! }));
  }

  async saveGaps(scope: Scope, snapshot: GapSnapshot, requestedAt: string | null) {
    const computed = this.gaps.value('computedAt', snapshot.computedAt);
    const clusters = this.gaps.value('clusters', snapshot.clusters);
    // A request made after the computation started stays pending.
    const clear = requestedAt === null ? sql`${this.gaps.ref}.requested_at` : sql`CASE WHEN ${this.gaps.ref}.requested_at <= ${this.gaps.value('requestedAt', requestedAt)} THEN NULL ELSE ${this.gaps.ref}.requested_at END`;
    await this.gaps.run(
      sql`INSERT INTO ${this.gaps.ref} (tenant_id, workspace_id, period, computed_at, questions, clusters, requested_at) VALUES (${scope.tenantId}, ${scope.workspaceId}, ${snapshot.period}, ${computed}, ${snapshot.questions}, ${clusters}, NULL)
          ON CONFLICT (tenant_id, workspace_id, period) DO UPDATE SET computed_at = excluded.computed_at, questions = excluded.questions, clusters = excluded.clusters, requested_at = ${clear}`,
    );
  }
}

export class SqlFeedback implements FeedbackStore {
  private readonly rows: SqlTable<Omit<FeedbackRecord, 'citations'>>;
  private readonly cited: SqlTable<FeedbackCitationRow>;

  constructor(private readonly driver: SqlDriver) {
    this.rows = new SqlTable(driver, FEEDBACK);
    this.cited = new SqlTable(driver, FEEDBACK_CITATIONS);
  }

  upsert(record: FeedbackRecord) {
    return this.driver.atomic(async (driver) => {
      const rows = new SqlTable(driver, FEEDBACK);
      const cited = new SqlTable(driver, FEEDBACK_CITATIONS);
      const scope = { tenantId: record.tenantId, workspaceId: record.workspaceId };
      const { citations, ...fields } = record;
      const existing = await rows.one(sql`SELECT * FROM ${rows.ref} WHERE ${inScope(scope)} AND message_id = ${record.messageId}`);
      const id = existing?.id ?? record.id;
      if (existing) {
        await rows.update({ rating: record.rating, comment: record.comment, question: record.question ?? existing.question, updatedAt: record.updatedAt }, sql`id = ${id}`);
        await cited.run(sql`DELETE FROM ${cited.ref} WHERE feedback_id = ${id}`);
      } else await rows.insert(fields);
      const createdAt = record.updatedAt;
      await cited.insertMany(citations.map((c, position) => ({ ...c, tenantId: record.tenantId, workspaceId: record.workspaceId, feedbackId: id, position, rating: record.rating, createdAt })));
    });
  }

  async list(scope: Scope, filter: FeedbackFilter, options: { after?: string; limit: number }): Promise<Page<FeedbackRecord>> {
    const where: Sql[] = [inScope(scope)];
    if (options.after !== undefined) where.push(sql`id < ${options.after}`);
    if (filter.rating) where.push(sql`rating = ${filter.rating}`);
    if (filter.hasComment !== undefined) where.push(filter.hasComment ? sql`comment IS NOT NULL` : sql`comment IS NULL`);
    if (filter.since) where.push(sql`updated_at >= ${this.rows.value('updatedAt', filter.since)}`);
    if (filter.until) where.push(sql`updated_at < ${this.rows.value('updatedAt', filter.until)}`);
    if (filter.documentId) where.push(sql`id IN (SELECT feedback_id FROM ${this.cited.ref} WHERE ${inScope(scope)} AND document_id = ${filter.documentId})`);
    const rows = await this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${sql.join(where, ' AND ')} ORDER BY id DESC LIMIT ${options.limit + 1}`);
    const listed = page(rows, options.limit);
    const ids = listed.items.map((f) => f.id);
    const citations = ids.length ? await this.cited.all(sql`SELECT * FROM ${this.cited.ref} WHERE feedback_id ${sql.in(ids)} ORDER BY feedback_id, position`) : [];
    const byFeedback = new Map<string, FeedbackCitationRow[]>();
    for (const c of citations) byFeedback.set(c.feedbackId, [...(byFeedback.get(c.feedbackId) ?? []), c]);
    return {
      items: listed.items.map((f) => ({ ...f, citations: (byFeedback.get(f.id) ?? []).map((c) => ({ documentId: c.documentId, chunkId: c.chunkId, documentVersion: c.documentVersion, addressedAt: c.addressedAt })) })),
      nextCursor: listed.nextCursor,
    };
  }

  async negativeChunks(scope: Scope, documentId: string, limit: number): Promise<ChunkFeedback[]> {
    const { rows } = await this.driver.query(
      sql`SELECT chunk_id, document_version, COUNT(*) AS negative, MAX(created_at) AS last_at, SUM(CASE WHEN addressed_at IS NULL THEN 0 ELSE 1 END) AS addressed
          FROM ${this.cited.ref} WHERE ${inScope(scope)} AND document_id = ${documentId} AND rating = 'down'
          GROUP BY chunk_id, document_version ORDER BY negative DESC, last_at DESC, chunk_id LIMIT ${limit}`,
    );
    return rows.map((r: Row) => ({ chunkId: String(r.chunk_id), documentVersion: String(r.document_version), negative: Number(r.negative), lastAt: isoOf(r.last_at), addressed: Number(r.addressed) }));
  }

  markAddressed(scope: Scope, documentId: string, at: string) {
    return this.cited.run(sql`UPDATE ${this.cited.ref} SET addressed_at = ${this.cited.value('addressedAt', at)} WHERE ${inScope(scope)} AND document_id = ${documentId} AND addressed_at IS NULL`);
  }
}
