import type {
  InboxItem,
  InboxReason,
  InboxStore,
  Scope,
  TicketPriority,
  VisitorRecord,
  VisitorStore,
} from '@panya/core';
import { tables } from '@panya/core/rows';
import { iso, type Conn, type Names } from './database.js';
import { page, Table } from './rows.js';

type PageOptions = { after?: string; limit: number };

export class PgVisitors implements VisitorStore {
  private readonly rows: Table<VisitorRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.rows = new Table(db, n, tables.VISITORS);
  }

  async insert(v: VisitorRecord) {
    await this.rows.insert(v);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  findByEmail(scope: Scope, email: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 AND workspace_id = $2 AND email = $3`, [scope.tenantId, scope.workspaceId, email]);
  }

  list(scope: Scope, { email, ...options }: PageOptions & { email?: string }) {
    return this.rows.list(scope, options, { email });
  }

  update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }) {
    return this.rows.patch(scope, id, patch);
  }

  listByDomain(scope: Scope, domain: string, limit: number) {
    // The same expression as the visitors_domain index.
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 AND workspace_id = $2 AND split_part(email, '@', 2) = $3 ORDER BY id DESC LIMIT $4`, [
      scope.tenantId,
      scope.workspaceId,
      domain,
      limit,
    ]);
  }

  merge(scope: Scope, from: string, into: string) {
    return this.db.atomic(async (tx) => {
      const { rows } = await tx.query(`SELECT count(*)::int AS n FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = ANY($3::text[])`, [scope.tenantId, scope.workspaceId, [from, into]]);
      if (from === into || rows[0]!.n !== 2) throw new Error('Both visitors must exist in this workspace.');
      for (const table of ['conversations', 'tickets']) {
        await tx.query(`UPDATE ${this.n.t(table)} SET visitor_id = $1 WHERE tenant_id = $2 AND workspace_id = $3 AND visitor_id = $4`, [into, scope.tenantId, scope.workspaceId, from]);
      }
      await tx.query(`DELETE FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, from]);
    });
  }
}

export class PgInbox implements InboxStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  /**
   * One inbox source's next page on its own, as the same named columns ($1 tenant, $2 workspace,
   * $3/$4 cursor, $5 limit): a page costs a few index walks however long the history.
   */
  private source(reason: InboxReason): string {
    const at = { sla_breach: 'breached_at', open_ticket: 'created_at', thumbs_down: 'c.last_message_at', ungrounded: 'c.last_message_at' }[reason];
    const id = reason === 'sla_breach' || reason === 'open_ticket' ? 'id' : 'c.id';
    return `(${this.rows(reason)} AND ($3::timestamptz IS NULL OR ${at} < $3 OR (${at} = $3 AND ${id} < $4)) ORDER BY ${at} DESC, ${id} DESC LIMIT $5)`;
  }

  private rows(reason: InboxReason): string {
    const tickets = this.n.t('tickets');
    const conversations = this.n.t('conversations');
    const firstQuestion = `coalesce((SELECT left(m.content, 200) FROM ${this.n.t('messages')} m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.id LIMIT 1), '')`;
    const ticket = (at: string) => `SELECT '${reason}'::text AS reason, 'ticket'::text AS kind, id, conversation_id, id AS ticket_id, subject AS title, priority, ${at} AS at FROM ${tickets}`;
    const conversation = `SELECT '${reason}'::text AS reason, 'conversation'::text AS kind, c.id, c.id AS conversation_id, NULL::text AS ticket_id, ${firstQuestion} AS title, NULL::text AS priority, c.last_message_at AS at FROM ${conversations} c`;
    switch (reason) {
      case 'sla_breach':
        return `${ticket('breached_at')} WHERE tenant_id = $1 AND workspace_id = $2 AND status = 'open' AND breached_at IS NOT NULL`;
      case 'open_ticket':
        return `${ticket('created_at')} WHERE tenant_id = $1 AND workspace_id = $2 AND status = 'open' AND breached_at IS NULL`;
      case 'thumbs_down':
        return `${conversation} WHERE c.tenant_id = $1 AND c.workspace_id = $2 AND NOT c.handed_off AND c.has_thumbs_down`;
      case 'ungrounded':
        return `${conversation} WHERE c.tenant_id = $1 AND c.workspace_id = $2 AND NOT c.handed_off AND NOT c.has_thumbs_down AND c.has_ungrounded_answer`;
    }
  }

  async list(scope: Scope, filter: { reasons: readonly InboxReason[] }, { after, limit }: { after?: { at: string; id: string }; limit: number }) {
    const union = filter.reasons.map((r) => this.source(r)).join(' UNION ALL ');
    const { rows } = await this.db.query(
      `SELECT * FROM (${union}) i ORDER BY at DESC, id DESC LIMIT $5`,
      [scope.tenantId, scope.workspaceId, after?.at ?? null, after?.id ?? null, limit + 1],
    );
    const items: InboxItem[] = rows.slice(0, limit).map((r) => ({
      reason: r.reason as InboxReason,
      kind: r.kind as InboxItem['kind'],
      id: r.id as string,
      conversationId: (r.conversation_id as string | null) ?? null,
      ticketId: (r.ticket_id as string | null) ?? null,
      title: r.title as string,
      priority: (r.priority as TicketPriority | null) ?? null,
      at: iso(r.at),
    }));
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }
}
