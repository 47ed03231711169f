import type { ConversationRecord, DisqualifyOutcome, DisqualifyReason, MeterKey, ResolutionRecord, ResolutionStore, Scope, TimeRange } from '@panya/core';
import { BILLABLE_CONVERSATION, DISQUALIFYING_FLAG, tables } from '@panya/core/rows';
import type { Db, Runner, Statements } from './database.js';
import { Table } from './rows.js';

type Row = Record<string, unknown>;

export class SqliteResolutions implements ResolutionStore {
  private readonly conversations: Table<ConversationRecord>;
  private readonly rows: Table<ResolutionRecord>;

  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {
    this.conversations = new Table(sql, tables.CONVERSATIONS);
    this.rows = new Table(sql, tables.RESOLUTIONS);
  }

  candidates({ from, idleBefore }: { from: string; idleBefore: string }, limit: number, tenantId?: string) {
    return this.run(() =>
      this.conversations.all(
            `SELECT c.* FROM conversations c
             WHERE ${this.conversations.codec.where(BILLABLE_CONVERSATION, 'c')} AND c.last_message_at >= @from AND c.last_message_at <= @idleBefore
               AND (@tenantId IS NULL OR c.tenant_id = @tenantId)
               AND NOT EXISTS (SELECT 1 FROM resolutions r WHERE r.conversation_id = c.id)
             ORDER BY c.last_message_at, c.id LIMIT @limit`,
        { from, idleBefore, limit, tenantId: tenantId ?? null },
      ),
    );
  }

  record(r: ResolutionRecord) {
    return this.run(
      () =>
        this.sql
          .get(
            `INSERT INTO resolutions (id, tenant_id, workspace_id, conversation_id, billing_period, created_at, reported_period, refunded_at, corrected_period)
             SELECT @id, c.tenant_id, c.workspace_id, c.id, @billingPeriod, @createdAt, NULL, NULL, NULL FROM conversations c
             WHERE c.tenant_id = @tenantId AND c.workspace_id = @workspaceId AND c.id = @conversationId
               AND ${this.conversations.codec.where(BILLABLE_CONVERSATION, 'c')}
             ON CONFLICT (conversation_id) DO NOTHING`,
          )
          .run({ id: r.id, tenantId: r.tenantId, workspaceId: r.workspaceId, conversationId: r.conversationId, billingPeriod: r.billingPeriod, createdAt: r.createdAt }).changes === 1,
    );
  }

  count(tenantId: string, period: string, range: TimeRange = {}) {
    return this.run(
      () =>
        (
          this.sql
            .get('SELECT COUNT(*) AS n FROM resolutions WHERE tenant_id = ? AND billing_period = ? AND refunded_at IS NULL AND (? IS NULL OR created_at >= ?) AND (? IS NULL OR created_at < ?)')
            .get(tenantId, period, range.from ?? null, range.from ?? null, range.before ?? null, range.before ?? null) as Row
        ).n as number,
    );
  }

  list(tenantId: string, period?: string, page: { after?: string; limit?: number } = {}) {
    return this.run(() =>
      this.rows.all(
        'SELECT * FROM resolutions WHERE tenant_id = @tenantId AND (@period IS NULL OR billing_period = @period) AND (@after IS NULL OR conversation_id > @after) ORDER BY billing_period, conversation_id LIMIT @limit',
        { tenantId, period: period ?? null, after: page.after ?? null, limit: page.limit ?? -1 },
      ),
    );
  }

  get(tenantId: string, id: string) {
    return this.run(() => this.rows.one('SELECT * FROM resolutions WHERE tenant_id = ? AND id = ?', tenantId, id));
  }

  disqualify(scope: Scope, conversationId: string, reason: DisqualifyReason, at: string) {
    return this.run(() =>
      this.db.transaction((): DisqualifyOutcome | null => {
        const flagged = this.sql.get(`UPDATE conversations SET ${this.conversations.codec.column(DISQUALIFYING_FLAG[reason])} = 1 WHERE tenant_id = ? AND workspace_id = ? AND id = ?`).run(scope.tenantId, scope.workspaceId, conversationId);
        if (flagged.changes === 0) return null;
        // Not reported yet: the count simply goes. Reported: kept, refunded by the next report.
        if (this.sql.get('DELETE FROM resolutions WHERE tenant_id = ? AND conversation_id = ? AND reported_period IS NULL').run(scope.tenantId, conversationId).changes === 1) return 'removed';
        this.sql.get('UPDATE resolutions SET refunded_at = ? WHERE tenant_id = ? AND conversation_id = ? AND refunded_at IS NULL').run(at, scope.tenantId, conversationId);
        const row = this.sql.get('SELECT 1 FROM resolutions WHERE tenant_id = ? AND conversation_id = ?').get(scope.tenantId, conversationId);
        return row ? 'refunded' : 'not_counted';
      })(),
    );
  }

  markReported(tenantId: string, period: string) {
    return this.run(() =>
      this.db.transaction(() => {
        this.sql.get('UPDATE resolutions SET reported_period = ? WHERE tenant_id = ? AND billing_period = ? AND reported_period IS NULL AND refunded_at IS NULL').run(period, tenantId, period);
        return (this.sql.get('SELECT COUNT(*) AS n FROM resolutions WHERE tenant_id = ? AND billing_period = ? AND refunded_at IS NULL').get(tenantId, period) as Row).n as number;
      })(),
    );
  }

  uncorrectedRefunds(tenantId: string) {
    return this.run(() =>
      (
        this.sql
          .get(
            `SELECT reported_period AS period, COUNT(*) AS n FROM resolutions
             WHERE tenant_id = ? AND reported_period IS NOT NULL AND refunded_at IS NOT NULL AND corrected_period IS NULL
             GROUP BY reported_period ORDER BY reported_period`,
          )
          .all(tenantId) as Row[]
      ).map((r) => ({ period: r.period as string, count: r.n as number })),
    );
  }

  markCorrected(tenantId: string, period: string, correctedIn: string) {
    return this.run(() => {
      this.sql
        .get('UPDATE resolutions SET corrected_period = ? WHERE tenant_id = ? AND reported_period = ? AND refunded_at IS NOT NULL AND corrected_period IS NULL')
        .run(correctedIn, tenantId, period);
    });
  }

  credits(tenantId: string) {
    return this.run(() => {
      const rows = this.sql.get('SELECT meter, balance FROM meter_credits WHERE tenant_id = ? AND balance <> 0').all(tenantId) as Row[];
      return Object.fromEntries(rows.map((r) => [r.meter as MeterKey, Number(r.balance)])) as Partial<Record<MeterKey, number>>;
    });
  }

  addCredits(tenantId: string, delta: Partial<Record<MeterKey, number>>) {
    return this.run(() => {
      const upsert = this.sql.get('INSERT INTO meter_credits (tenant_id, meter, balance) VALUES (?, ?, ?) ON CONFLICT (tenant_id, meter) DO UPDATE SET balance = balance + excluded.balance');
      for (const [meter, n] of Object.entries(delta)) if (n) upsert.run(tenantId, meter, n);
    });
  }
}
