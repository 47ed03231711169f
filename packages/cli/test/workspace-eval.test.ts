import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-eval-'));
  db = join(dir, 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: (s) => err.push(s) }, {}).parseAsync(['node', 'panya', ...args]);
  return { out: out.join('\n'), err: err.join('\n') };
}

/** A tenant with three articles and a set of four questions, one of them expecting the wrong article. */
async function seed() {
  const engine = createEngine({ store: openSqliteStore({ path: db }) });
  await engine.start();
  await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' });
  const ctx = (await engine.access.system('acme', 'default'))._unsafeUnwrap();
  const docs = [];
  for (const [title, text] of [
    ['Refunds', 'Refunds are paid back within 7 business days.'],
    ['Shipping', 'Orders to Bangkok arrive within 1-2 business days.'],
    ['Warranty', 'Every device has a 12-month warranty.'],
  ]) docs.push((await engine.documents.create(ctx, { title: title!, contentMd: `# ${title}\n\n${text}` }))._unsafeUnwrap().id);
  await engine.ingest.drain();
  const set = await engine.evals.createSet(ctx, {
    name: 'CI',
    seed: [],
    questions: [
      { question: 'How long do refunds take?', documentIds: [docs[0]!] },
      { question: 'When do orders to Bangkok arrive?', documentIds: [docs[1]!] },
      { question: 'How long is the warranty?', documentIds: [docs[2]!] },
      { question: 'How long is the warranty?', documentIds: [docs[0]!] },
    ],
  });
  await engine.close();
  return set._unsafeUnwrap();
}

describe('panya eval --workspace', () => {
  it('reports the metrics, stores the run, shows the change since the last run, and --fail-below exits non-zero', async () => {
    const set = await seed();
    const first = JSON.parse((await run(['eval', '--workspace', 'default', '--tenant', 'acme', '--db', db, '--json', '--fail-below', 'hitAt1=0.5'])).out);
    expect(first).toMatchObject({ status: 'done', setId: set.id, diff: null, metrics: { questions: 4, hitAt1: 0.75 } });

    const second = await run(['eval', '--workspace', 'default', '--tenant', 'acme', '--db', db, '--weights', 'lexical=0,semantic=0,trigram=1']);
    expect(second.out).toMatch(/^Run evr_\S+ of set evs_\S+: 4 questions, compared with evr_/);
    expect(second.out).toMatch(/\| Hit@1 \| 0\.\d{4} \([+-]\d\.\d{4}\) \|/);
    expect(second.out).toMatch(/\d+ better, \d+ worse, \d+ unchanged/);

    await expect(run(['eval', '--workspace', 'default', '--tenant', 'acme', '--db', db, '--fail-below', 'hitAt1=0.9,hitAt5=0.5'])).rejects.toThrow(/Below the gate: hitAt1 0\.7500 < 0\.9\./);
    await expect(run(['eval', '--workspace', 'default', '--tenant', 'acme', '--db', db, '--fail-below', 'recall=0.5'])).rejects.toThrow(/--fail-below: Bad gate "recall=0.5"/);
    await expect(run(['eval', '--workspace', 'default', '--db', db])).rejects.toThrow(/--workspace needs --tenant/);

    // Every run was stored (the gate's failing one too).
    const engine = createEngine({ store: openSqliteStore({ path: db }) });
    const ctx = (await engine.access.system('acme', 'default'))._unsafeUnwrap();
    expect((await engine.evals.listRuns(ctx, set.id))._unsafeUnwrap()).toHaveLength(3);
    await engine.close();
  });
});
