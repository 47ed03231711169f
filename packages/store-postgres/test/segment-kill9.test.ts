import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createEngine, LexicalIndex, LexicalSegment, lexicalFields, liveMask, type Scope } from '@panya/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';

/**
 * A process merging a workspace's lexical segments on Postgres, killed with SIGKILL while its
 * merge transaction is under way (held at its last statement by a lock this test takes), leaves
 * segments that hold every chunk row exactly once and rank as the rows do.
 */
const url = process.env.PANYA_TEST_PG;
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const schema = `panya_kill9_${randomBytes(5).toString('hex')}`;

const QUERIES = [
  { terms: ['refund'], pairs: [] as [string, string][] },
  { terms: ['ship', 'password'], pairs: [['ship', 'password']] as [string, string][] },
  { terms: ['gift', 'card', 'plan'], pairs: [['gift', 'card']] as [string, string][] },
];

if (!url) console.warn('PostgreSQL segment kill -9 test skipped: set PANYA_TEST_PG=postgres://… (see .ci/postgres.sh) to run it.');

describe.skipIf(!url)('lexical segments on Postgres after kill -9 mid-merge', () => {
  const admin = new pg.Pool({ connectionString: url, max: 3 });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  const t = (name: string) => `"${schema}"."${name}"`;

  /** Runs the writer; each time it begins a merge, holds the deletion table until a backend waits on it; kills the writer when that backend is its merge's last statement. */
  async function killMidMerge(scope: Scope, from: number): Promise<{ next: number; pid: number }> {
    const child: ChildProcess = spawn(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', join(here, 'fixtures/segment-writer.ts'), url!, schema, scope.tenantId, scope.workspaceId, String(from)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: number[] = [];
    child.stdout!.on('data', (d: Buffer) => {
      for (const m of d.toString().matchAll(/^merging (\d+)$/gm)) lines.push(Number(m[1]));
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const lock = await admin.connect();
    try {
      for (let seen = 0; ; ) {
        while (lines.length === seen) {
          if (child.exitCode !== null) throw new Error('the writer exited');
          await new Promise((r) => setTimeout(r, 5));
        }
        seen = lines.length;
        // Past the first few writes, so the workspace holds chunks and several segments.
        if (lines.at(-1)! < from + 10) continue;
        // Writes (inserts) and merges (deletes) of deletion rows wait for this lock; reads do not.
        await lock.query(`BEGIN; LOCK TABLE ${t('lexical_deletions')} IN SHARE MODE`);
        let waiting: { pid: number; query: string } | undefined;
        while (!waiting) {
          const { rows } = await admin.query(`SELECT pid, query FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [`%${schema}%`]);
          waiting = rows[0] as typeof waiting;
          if (!waiting) await new Promise((r) => setTimeout(r, 5));
        }
        if (/DELETE FROM .*lexical_deletions.* WHERE id = ANY/s.test(waiting.query)) {
          // The merge has deleted its inputs and written its result, uncommitted: kill its process now.
          child.kill('SIGKILL');
          await exited;
          await lock.query('ROLLBACK');
          return { next: lines.at(-1)! + 1, pid: waiting.pid };
        }
        await lock.query('ROLLBACK');
      }
    } finally {
      lock.release();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }

  async function expectConsistent(scope: Scope, pid: number) {
    // The killed client's backend rolls its transaction back once it reads the closed socket.
    for (;;) {
      const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (rows.length === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const { rows: chunks } = await admin.query(`SELECT id, title, heading_path, text FROM ${t('chunks')} WHERE tenant_id = $1 AND workspace_id = $2`, [scope.tenantId, scope.workspaceId]);
    const { rows: deletions } = await admin.query(`SELECT chunk_id AS "chunkId", seq::int AS seq FROM ${t('lexical_deletions')}`);
    const { rows: segments } = await admin.query(`SELECT seq::int AS seq, data FROM ${t('lexical_segments')}`);
    const live: string[] = [];
    for (const s of segments as { seq: number; data: Buffer }[]) {
      const segment = new LexicalSegment(s.data);
      const mask = liveMask(segment, s.seq, deletions as { chunkId: string; seq: number }[]);
      segment.ids.forEach((id, n) => mask[n] && live.push(id));
    }
    expect(live.sort()).toEqual(chunks.map((r) => r.id as string).sort());
    const index = new LexicalIndex();
    for (const r of chunks) {
      const { lexicalTitle, lexicalBody } = lexicalFields(r.title as string, r.heading_path as string[], r.text as string);
      index.upsert({ id: r.id as string, title: lexicalTitle, body: lexicalBody });
    }
    const store = await openPostgresStore({ connectionString: url!, schema, max: 2 });
    try {
      for (const q of QUERIES) expect(await store.search.lexical(scope, q as never, 20)).toEqual(index.search(q, 20));
    } finally {
      await store.close();
    }
    return chunks.length;
  }

  it('leave the segments as before the merge or after it, never between', async () => {
    const store = await openPostgresStore({ connectionString: url!, schema, max: 2 });
    const engine = createEngine({ store });
    await engine.start();
    (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const scope = (await engine.access.system('acme'))._unsafeUnwrap().scope;
    await engine.close();
    let next = 0;
    for (let round = 0; round < 2; round++) {
      const killed = await killMidMerge(scope, next);
      next = killed.next;
      expect(await expectConsistent(scope, killed.pid)).toBeGreaterThan(0);
    }
  }, 180_000);
});
