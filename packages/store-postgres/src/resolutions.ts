import type { ConversationRecord, DisqualifyOutcome, DisqualifyReason, MeterKey, ResolutionRecord, ResolutionStore, Scope, TimeRange } from '@panya/core';
import { BILLABLE_CONVERSATION, DISQUALIFYING_FLAG, tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { Table } from './rows.js';

export class PgResolutions implements ResolutionStore {
  private readonly conversations: Table<ConversationRecord>;
  private readonly rows: Table<ResolutionRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.conversations = new Table(db, n, tables.CONVERSATIONS);
    this.rows = new Table(db, n, tables.RESOLUTIONS);
  }

  candidates({ from, idleBefore }: { from: string; idleBefore: string }, limit: number, tenantId?: string) {
    return this.conversations.all(
      `SELECT c.* FROM ${this.n.t('conversations')} c
       WHERE ${this.conversations.codec.where(BILLABLE_CONVERSATION, 'c')} AND c.last_message_at >= $4 AND c.last_message_at <= $1
         AND ($2::text IS NULL OR c.tenant_id = $2)
         AND NOT EXISTS (SELECT 1 FROM ${this.n.t('resolutions')} r WHERE r.conversation_id = c.id)
       ORDER BY c.last_message_at, c.id LIMIT $3`,
      [idleBefore, tenantId ?? null, limit, from],
    );
  }

  async record(r: ResolutionRecord) {
    // FOR UPDATE: a disqualification of the same conversation commits first or waits for this one.
    const { rowCount } = await this.db.query(
      `INSERT INTO ${this.n.t('resolutions')} (id, tenant_id, workspace_id, conversation_id, billing_period, created_at)
       SELECT $1, c.tenant_id, c.workspace_id, c.id, $5, $6 FROM ${this.n.t('conversations')} c
       WHERE c.tenant_id = $2 AND c.workspace_id = $3 AND c.id = $4 AND ${this.conversations.codec.where(BILLABLE_CONVERSATION, 'c')}
       FOR UPDATE
       ON CONFLICT (conversation_id) DO NOTHING`,
      [r.id, r.tenantId, r.workspaceId, r.conversationId, r.billingPeriod, r.createdAt],
    );
    return rowCount === 1;
  }

  async count(tenantId: string, period: string, range: TimeRange = {}) {
    const { rows } = await this.db.query(
      `SELECT count(*)::int AS n FROM ${this.n.t('resolutions')} WHERE tenant_id = $1 AND billing_period = $2 AND refunded_at IS NULL
         AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at < $4)`,
      [tenantId, period, range.from ?? null, range.before ?? null],
    );
    return rows[0]!.n as number;
  }

  list(tenantId: string, period?: string, page: { after?: string; limit?: number } = {}) {
    return this.rows.all(
      `SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 AND ($2::text IS NULL OR billing_period = $2) AND ($3::text IS NULL OR conversation_id > $3) ORDER BY billing_period, conversation_id LIMIT $4`,
      [tenantId, period ?? null, page.after ?? null, page.limit ?? null],
    );
  }

  get(tenantId: string, id: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  disqualify(scope: Scope, conversationId: string, reason: DisqualifyReason, at: string) {
    return this.db.atomic(async (tx): Promise<DisqualifyOutcome | null> => {
      const flagged = await tx.query(`UPDATE ${this.n.t('conversations')} SET ${this.conversations.codec.column(DISQUALIFYING_FLAG[reason])} = true WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, conversationId]);
      if (flagged.rowCount === 0) return null;
      // Not reported yet: the count simply goes. Reported: kept, refunded by the next report.
      const removed = await tx.query(`DELETE FROM ${this.n.t('resolutions')} WHERE tenant_id = $1 AND conversation_id = $2 AND reported_period IS NULL`, [scope.tenantId, conversationId]);
      if (removed.rowCount === 1) return 'removed';
      await tx.query(`UPDATE ${this.n.t('resolutions')} SET refunded_at = $3 WHERE tenant_id = $1 AND conversation_id = $2 AND refunded_at IS NULL`, [scope.tenantId, conversationId, at]);
      const { rows } = await tx.query(`SELECT 1 FROM ${this.n.t('resolutions')} WHERE tenant_id = $1 AND conversation_id = $2`, [scope.tenantId, conversationId]);
      return rows.length > 0 ? 'refunded' : 'not_counted';
    });
  }

  markReported(tenantId: string, period: string) {
    return this.db.atomic(async (tx) => {
      await tx.query(
        `UPDATE ${this.n.t('resolutions')} SET reported_period = $2 WHERE tenant_id = $1 AND billing_period = $2 AND reported_period IS NULL AND refunded_at IS NULL`,
        [tenantId, period],
      );
      const { rows } = await tx.query(`SELECT count(*)::int AS n FROM ${this.n.t('resolutions')} WHERE tenant_id = $1 AND billing_period = $2 AND refunded_at IS NULL`, [tenantId, period]);
      return rows[0]!.n as number;
    });
  }

  async uncorrectedRefunds(tenantId: string) {
    const { rows } = await this.db.query(
      `SELECT reported_period AS period, count(*)::int AS n FROM ${this.n.t('resolutions')}
       WHERE tenant_id = $1 AND reported_period IS NOT NULL AND refunded_at IS NOT NULL AND corrected_period IS NULL
       GROUP BY reported_period ORDER BY reported_period`,
      [tenantId],
    );
    return rows.map((r) => ({ period: r.period as string, count: r.n as number }));
  }

  async markCorrected(tenantId: string, period: string, correctedIn: string) {
    await this.db.query(
      `UPDATE ${this.n.t('resolutions')} SET corrected_period = $3 WHERE tenant_id = $1 AND reported_period = $2 AND refunded_at IS NOT NULL AND corrected_period IS NULL`,
      [tenantId, period, correctedIn],
    );
  }

  async credits(tenantId: string) {
    const { rows } = await this.db.query(`SELECT meter, balance FROM ${this.n.t('meter_credits')} WHERE tenant_id = $1 AND balance <> 0`, [tenantId]);
    return Object.fromEntries(rows.map((r) => [r.meter as MeterKey, Number(r.balance)])) as Partial<Record<MeterKey, number>>;
  }

  async addCredits(tenantId: string, delta: Partial<Record<MeterKey, number>>) {
    for (const [meter, n] of Object.entries(delta)) {
      if (!n) continue;
      await this.db.query(
        `INSERT INTO ${this.n.t('meter_credits')} AS m (tenant_id, meter, balance) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, meter) DO UPDATE SET balance = m.balance + excluded.balance`,
        [tenantId, meter, n],
      );
    }
  }
}
