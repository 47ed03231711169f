import type { SearchIndex } from '../../search/ports/search-index.js';
import type { ApiKeyRecord, ApiKeyStore, TenantRecord, TenantStore, WorkspacePatch, WorkspacePurge, WorkspaceRecord, WorkspaceStore } from '../../ports/store.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { API_KEYS, TENANTS, WORKSPACES } from '../tables.js';
import { purgeWorkspace } from '../workspace-purge.js';
import type { CounterTables } from './counter-tables.js';

/** Runs a write to a tenant or its workspaces and moves the tenant's version (`TenantStore.version`) in the same transaction. */
function versioned<R>(driver: SqlDriver, tenantId: string, write: (tx: SqlDriver) => Promise<R>): Promise<R> {
  return driver.atomic(async (tx) => {
    const result = await write(tx);
    await tx.query(sql`UPDATE ${sql.table(TENANTS.table)} SET version = version + 1 WHERE id = ${tenantId}`);
    return result;
  });
}

export class SqlTenants implements TenantStore {
  private readonly rows: SqlTable<TenantRecord>;

  /** `erase` is the store's: it finds the tables with `tenant_id` in its own catalog and owns the search index's files. */
  constructor(
    driver: SqlDriver,
    private readonly eraseTenant: (id: string) => Promise<Record<string, number>>,
  ) {
    this.rows = new SqlTable(driver, TENANTS);
  }

  erase(id: string) {
    return this.eraseTenant(id);
  }

  async insert(t: TenantRecord) {
    await this.rows.insert(t);
  }

  get(id: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE id = ${id}`);
  }

  getBySlug(slug: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE slug = ${slug}`);
  }

  async update(id: string, patch: Parameters<TenantStore['update']>[1]) {
    await versioned(this.rows.driver, id, (tx) => new SqlTable(tx, TENANTS).update(patch, sql`id = ${id}`));
  }

  async version(id: string) {
    const { rows } = await this.rows.driver.query(sql`SELECT version FROM ${this.rows.ref} WHERE id = ${id}`);
    return rows.length === 0 ? null : Number(rows[0]!.version);
  }

  list() {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} ORDER BY slug${sql.byteOrder}`);
  }
}

export class SqlWorkspaces implements WorkspaceStore {
  private readonly rows: SqlTable<WorkspaceRecord>;

  constructor(
    private readonly driver: SqlDriver,
    /** A workspace's chunks go through the search index, which owns their lexical and vector rows. */
    private readonly search: SearchIndex,
    private readonly counters: CounterTables,
  ) {
    this.rows = new SqlTable(driver, WORKSPACES);
  }

  async insert(w: WorkspaceRecord) {
    await versioned(this.driver, w.tenantId, (tx) => new SqlTable(tx, WORKSPACES).insert(w));
  }

  get(tenantId: string, id: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  getBySlug(tenantId: string, slug: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND slug = ${slug}`);
  }

  getDefault(tenantId: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND is_default = ${this.rows.value('isDefault', true)}`);
  }

  list(tenantId: string, options: { includeDeleted?: boolean } = {}) {
    const live = options.includeDeleted ? sql.empty : sql` AND deleted_at IS NULL`;
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId}${live} ORDER BY deleted_at IS NOT NULL, is_default DESC, id`);
  }

  update(tenantId: string, id: string, patch: WorkspacePatch) {
    return versioned(this.driver, tenantId, (tx) => new SqlTable(tx, WORKSPACES).update(patch, sql`tenant_id = ${tenantId} AND id = ${id}`));
  }

  listDeletedBefore(before: string, limit: number, tenantId?: string) {
    const tenant = tenantId === undefined ? sql.empty : sql` AND tenant_id = ${tenantId}`;
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE deleted_at IS NOT NULL AND deleted_at <= ${before}${tenant} ORDER BY deleted_at, id LIMIT ${limit}`);
  }

  async purge(tenantId: string, id: string, limit: number): Promise<WorkspacePurge> {
    const scope = { tenantId, workspaceId: id };
    return purgeWorkspace(await this.get(tenantId, id), limit, {
      chunks: (budget) => this.purgeChunks(scope, budget),
      rows: async (table, budget) => {
        const driver = this.counters.tables.has(table) ? this.counters.driver : this.driver;
        const where = sql`tenant_id = ${tenantId} AND workspace_id = ${id}`;
        return (await driver.query(sql`DELETE FROM ${sql.table(table)} WHERE ${sql.firstRows(table, where, budget)}`)).rowCount;
      },
      workspace: async () => {
        await versioned(this.driver, tenantId, (tx) => tx.query(sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`));
      },
    });
  }

  /** The workspace's chunks (and legacy chunks of its documents), document by document through the search index. */
  private async purgeChunks(scope: { tenantId: string; workspaceId: string }, budget: number): Promise<number> {
    const { tenantId: t, workspaceId: w } = scope;
    const { rows } = await this.driver.query(
      sql`SELECT document_id, COUNT(*) AS n FROM ${sql.table('chunks')} WHERE tenant_id = ${t} AND (workspace_id = ${w}
            OR (workspace_id IS NULL AND document_id IN (SELECT id FROM ${sql.table('documents')} WHERE tenant_id = ${t} AND workspace_id = ${w})))
          GROUP BY document_id LIMIT ${budget}`,
    );
    let removed = 0;
    for (const doc of rows) {
      await this.search.removeDocumentChunks(scope, doc.document_id as string);
      removed += Number(doc.n);
    }
    return removed;
  }
}

/** How long a key's last use waits to be written with others'. */
const TOUCH_DELAY_MS = 1000;

export class SqlApiKeys implements ApiKeyStore {
  private readonly rows: SqlTable<ApiKeyRecord>;
  /** Last uses waiting for their write, by key id. */
  private readonly touches = new Map<string, string>();
  private touchTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, API_KEYS);
  }

  async insert(k: ApiKeyRecord) {
    await this.rows.insert(k);
  }

  findByHash(secretHash: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE secret_hash = ${secretHash}`);
  }

  async list(tenantId: string) {
    await this.flushTouches();
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} ORDER BY id`);
  }

  async revoke(tenantId: string, id: string, at: string) {
    return (await this.rows.run(sql`UPDATE ${this.rows.ref} SET revoked_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id} AND revoked_at IS NULL`)) > 0;
  }

  /** A busy server uses many keys a minute: their last uses are written together, once a second. */
  async touch(id: string, at: string) {
    this.touches.set(id, at);
    if (this.touchTimer) return;
    this.touchTimer = setTimeout(() => void this.flushTouches().catch(() => undefined), TOUCH_DELAY_MS);
    (this.touchTimer as { unref?: () => void }).unref?.();
  }

  async flushTouches() {
    if (this.touchTimer) clearTimeout(this.touchTimer);
    this.touchTimer = null;
    if (this.touches.size === 0) return;
    // In key order: every process's batch takes the rows' locks in one order, so two batches
    // touching the same keys wait for each other instead of deadlocking (a second each on Postgres).
    const batch = [...this.touches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.touches.clear();
    await this.rows.driver.atomic(async (tx) => {
      for (const [id, at] of batch) await tx.query(sql`UPDATE ${this.rows.ref} SET last_used_at = ${at} WHERE id = ${id}`);
    });
  }
}
