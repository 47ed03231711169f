import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, LexicalIndex, LexicalSegment, lexicalFields, liveMask, type Scope } from '@panya/core';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkText, openSqliteStore } from '../src/index.js';
import { segmentBytes } from '../src/segment-blob.js';

/**
 * A process writing and merging a workspace's lexical segments, killed with SIGKILL in the middle
 * of a merge, leaves segments that hold every chunk row exactly once and rank as the rows do.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'panya-segment-kill9-'));
const path = join(dir, 'panya.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUERIES = [
  { terms: ['refund'], pairs: [] as [string, string][] },
  { terms: ['ship', 'password'], pairs: [['ship', 'password']] as [string, string][] },
  { terms: ['gift', 'card', 'plan'], pairs: [['gift', 'card']] as [string, string][] },
];

/** Starts the writer and resolves once it has begun its `merges`-th merge since starting; then kills it with SIGKILL. */
function runAndKill(scope: Scope, from: number, merges: number): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', join(here, 'fixtures/segment-writer.ts'), path, scope.tenantId, scope.workspaceId, String(from)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let seen = 0;
  let last = from;
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        const m = /^merging (\d+)$/.exec(line);
        if (!m) continue;
        last = Number(m[1]);
        // Killed the moment it reports a merge begun: the merge's read, work or write is under way.
        if (++seen === merges && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? done(last + 1) : fail(new Error(`writer exited with ${code}`))));
  });
}

async function expectConsistent(scope: Scope) {
  const store = openSqliteStore({ path });
  try {
    const rows = store.db.prepare(`SELECT c.id, c.title, c.heading_path, ${chunkText('c')} AS text FROM chunks c WHERE c.tenant_id = ? AND c.workspace_id = ?`).all(scope.tenantId, scope.workspaceId) as { id: string; title: string; heading_path: string; text: string }[];
    const deletions = store.db.prepare('SELECT chunk_id AS chunkId, seq FROM lexical_deletions').all() as { chunkId: string; seq: number }[];
    const live: string[] = [];
    for (const s of store.db.prepare('SELECT seq, data FROM lexical_segments').all() as { seq: number; data: Buffer }[]) {
      const segment = new LexicalSegment(segmentBytes(s.data));
      const mask = liveMask(segment, s.seq, deletions);
      segment.ids.forEach((id, n) => mask[n] && live.push(id));
    }
    // Every chunk row live in exactly one segment, and nothing else.
    expect(live.sort()).toEqual(rows.map((r) => r.id).sort());
    const index = new LexicalIndex();
    for (const r of rows) {
      const { lexicalTitle, lexicalBody } = lexicalFields(r.title, JSON.parse(r.heading_path) as string[], r.text);
      index.upsert({ id: r.id, title: lexicalTitle, body: lexicalBody });
    }
    for (const q of QUERIES) expect(await store.search.lexical(scope, { ...q, fragments: [] }, 20)).toEqual(index.search(q, 20));
    return rows.length;
  } finally {
    await store.close();
  }
}

describe('lexical segments after kill -9', () => {
  it('stay consistent with the chunk rows when the merging process dies mid-merge, round after round', async () => {
    const store = openSqliteStore({ path });
    const engine = createEngine({ store });
    await engine.start();
    (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const scope = (await engine.access.system('acme'))._unsafeUnwrap().scope;
    await engine.close();

    let next = 0;
    for (const merges of [12, 7, 23]) {
      next = await runAndKill(scope, next, merges);
      expect(await expectConsistent(scope)).toBeGreaterThan(0);
    }
  }, 180_000);
});
