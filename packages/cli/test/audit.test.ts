import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '@panya/core/rows';
import { openSqliteStore } from '@panya/store-sqlite';
import { buildProgram } from '@panya/cli';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-audit-'));
  db = join(dir, 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  const out: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: () => {} }, {}).parseAsync(['node', 'panya', ...args, '--db', db]);
  return out.join('\n');
}

/** Changes the stored database behind the engine's back, as someone with database access could. */
async function tamper(statement: ReturnType<typeof sql>) {
  const store = openSqliteStore({ path: db });
  await store.kit.query(statement);
  await store.close();
}

describe('panya audit', () => {
  it('verifies an intact chain, then names the first entry after its stored content is changed', async () => {
    await run('tenant', 'create', '--slug', 'acme', '--plan', 'business');
    await run('workspace', 'create', '--tenant', 'acme', '--slug', 'outlet');
    await run('workspace', 'rename', '--tenant', 'acme', '--slug', 'outlet', '--name', 'Acme Outlet');
    await run('workspace', 'delete', '--tenant', 'acme', '--slug', 'outlet');
    const lines = (await run('audit', 'export', '--tenant', 'acme')).split('\n').map((l) => JSON.parse(l));
    expect(lines.map((e) => [e.seq, e.type, e.actorKind])).toEqual([
      [1, 'api_key.created', 'operator'],
      [2, 'workspace.created', 'operator'],
      [3, 'workspace.updated', 'operator'],
      [4, 'workspace.deleted', 'operator'],
    ]);
    expect(lines[2]).toMatchObject({ before: { name: 'outlet' }, after: { name: 'Acme Outlet' }, prevHash: lines[1].hash });
    expect(await run('audit', 'verify', '--tenant', 'acme')).toBe('Audit chain of tenant "acme" verified: 4 entries, #1 to #4.');

    // Someone rewrites the rename's summary in the database: verify fails naming that entry.
    await tamper(sql`UPDATE audit_events SET after_summary = ${JSON.stringify({ name: 'Something else' })} WHERE seq = 3`);
    await expect(run('audit', 'verify', '--tenant', 'acme')).rejects.toThrow(`Audit chain of tenant "acme" is broken at entry #3 (${lines[2].id}): its content does not match its hash. 2 entries before it verified.`);
  });

  it('names the entry after a deleted one', async () => {
    await run('tenant', 'create', '--slug', 'acme', '--plan', 'business');
    await run('workspace', 'create', '--tenant', 'acme', '--slug', 'outlet');
    await run('workspace', 'delete', '--tenant', 'acme', '--slug', 'outlet');
    const lines = (await run('audit', 'export', '--tenant', 'acme')).split('\n').map((l) => JSON.parse(l));
    await tamper(sql`DELETE FROM audit_events WHERE seq = 2`);
    await expect(run('audit', 'verify', '--tenant', 'acme')).rejects.toThrow(`broken at entry #3 (${lines[2].id}): the entry before it is missing`);
  });
});
