/**
 * The indexing claim every ingest worker polls: cheap when the queue is empty (a read on the
 * partial index `documents_queue`, no write lock) and when it holds 1 MB documents (their sizes
 * come from the rows the index finds, never from a scan of every document's content).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type DocumentRecord } from '@panya/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

const at = '2026-11-28T00:00:00.000Z';

/** The SQL texts `store` prepares while `fn` runs, each with its query plan (one line per step). */
async function plansOf(store: SqliteStore, fn: () => Promise<unknown>): Promise<{ text: string; plan: string[] }[]> {
  const texts: string[] = [];
  const prepare = store.db.prepare.bind(store.db);
  store.db.prepare = ((text: string) => (texts.push(text), prepare(text))) as typeof store.db.prepare;
  try {
    await fn();
  } finally {
    store.db.prepare = prepare as typeof store.db.prepare;
  }
  return texts.map((text) => {
    const params = Array.from({ length: text.split('?').length - 1 }, () => null);
    const plan = (prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    return { text, plan };
  });
}

describe('claiming documents for indexing on SQLite', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-claim-'));
    path = join(dir, 'panya.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seed(store: SqliteStore, indexed: number, queued: number) {
    const created = (await createEngine({ store }).tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    const scope = { tenantId: created.tenant.id, workspaceId: created.defaultWorkspace.id };
    const megabyte = 'word '.repeat(200_000);
    const doc = (id: string, status: DocumentRecord['status']): DocumentRecord => ({
      id,
      ...scope,
      title: id,
      contentMd: `${id} ${megabyte}`,
      url: null,
      publicSurfaces: [],
      audiences: ['internal'],
      externalId: null,
      metadata: {},
      status,
      error: null,
      createdAt: at,
      updatedAt: at,
    });
    await store.documents.insertMany!([...Array.from({ length: indexed }, (_, i) => doc(`doc_done_${i}`, 'indexed')), ...Array.from({ length: queued }, (_, i) => doc(`doc_queued_${i}`, 'pending'))]);
  }

  const claim = (store: SqliteStore) => store.documents.claimForIndexing({ now: at, leaseUntil: '2026-11-28T00:00:30.000Z', limit: 32, maxBytes: 4 << 20, holder: 'test/run/t0' });

  it('answers an empty queue with a read on documents_queue, without the write lock', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    const other = new Database(path);
    try {
      await seed(store, 8, 0);
      // Another connection holds the write lock (an upload, another worker's commit) throughout.
      other.exec('BEGIN IMMEDIATE');
      const statements = await plansOf(store, async () => expect(await claim(store)).toEqual([]));
      expect(statements).toHaveLength(1);
      expect(statements[0]!.text).toMatch(/^SELECT/);
      expect(statements[0]!.plan.join('\n')).toMatch(/USING (COVERING )?INDEX documents_queue/);
      expect(statements[0]!.plan.join('\n')).not.toMatch(/SCAN documents/);
      other.exec('COMMIT');
    } finally {
      other.close();
      await store.close();
    }
  });

  it('finds queued 1 MB documents through documents_queue and claims them, oldest first, within the byte budget', async () => {
    const store = openSqliteStore({ path });
    try {
      await seed(store, 8, 6);
      let claimed: Awaited<ReturnType<typeof claim>> = [];
      const statements = await plansOf(store, async () => (claimed = await claim(store)));
      // 1 MB each within 4 MB: four of the six.
      expect(claimed.map((c) => c.doc.id)).toEqual(['doc_queued_0', 'doc_queued_1', 'doc_queued_2', 'doc_queued_3']);
      const update = statements.find((s) => s.text.includes('UPDATE'))!;
      const plan = update.plan.join('\n');
      expect(plan).toMatch(/USING (COVERING )?INDEX documents_queue/);
      // Every other read of the table is by primary key: no step reads every document.
      expect(plan).not.toMatch(/SCAN (documents|d)\b/);
      for (const s of statements) expect(s.plan.join('\n')).not.toMatch(/SCAN (documents|d)\b/);
      expect((await store.documents.countByStatus({ tenantId: claimed[0]!.doc.tenantId, workspaceId: claimed[0]!.doc.workspaceId })).indexing).toBe(4);
    } finally {
      await store.close();
    }
  });
});
