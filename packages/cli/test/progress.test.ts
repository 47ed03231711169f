import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';
import { demoArticles } from '../src/demo/articles.js';
import { progress } from '../src/progress.js';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-progress-'));
  db = join(dir, 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: (s) => err.push(s) }, {}).parseAsync(['node', 'panya', ...args]);
  return { out: out.join('\n'), err };
}

describe('progress without a terminal', () => {
  it('writes a line at most every interval, and a last one when done', () => {
    const lines: string[] = [];
    const io = { out: () => {}, err: (s: string) => lines.push(s) };
    const often = progress(io, 'Re-embedding', 4, { tty: false, everyMs: 0, unit: 'chunks' });
    for (let i = 1; i <= 4; i++) often.update(i);
    often.stop();
    expect(lines).toEqual(['Re-embedding: 1/4 chunks (25%)', 'Re-embedding: 2/4 chunks (50%)', 'Re-embedding: 3/4 chunks (75%)', 'Re-embedding: 4/4 chunks (100%)', 'Re-embedding: 4/4 chunks (100%)']);
    lines.length = 0;
    const rarely = progress(io, 'Indexing', 3, { tty: false, everyMs: 60_000, unit: 'documents' });
    rarely.update(1);
    rarely.update(5, 6); // the total can grow (documents written meanwhile)
    rarely.stop();
    expect(lines).toEqual(['Indexing: 5/6 documents (83%)']);
  });
});

describe('summaries count documents', () => {
  it('reindex --all and --tenant, and docs import, report documents from the store', async () => {
    await run(['demo', '--db', db]);
    const all = await run(['reindex', '--all', '--db', db]);
    expect(all.out).toMatch(new RegExp(`^Re-indexed ${demoArticles.length} documents \\(\\d+ chunks\\) of every tenant with embedder hash-`));
    // With no model, hash vectors are computed by the searches that weigh them: none are stored.
    expect(all.out).toContain('its vectors are computed by the searches that weigh them, none stored');
    expect(all.err.at(-1)).toMatch(/^Re-embedding: (\d+)\/\1 chunks \(100%\)$/);

    const tenant = await run(['reindex', '--tenant', 'demo', '--db', db]);
    expect(tenant.out).toBe(`Re-indexed ${demoArticles.length} documents of tenant demo with embedder ${/embedder (\S+?);/.exec(all.out)![1]}: ${demoArticles.length} indexed.`);
    expect(tenant.err.at(-1)).toBe(`Re-indexing: ${demoArticles.length}/${demoArticles.length} documents (100%)`);

    const docs = join(dir, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'a.md'), '# A\n\nAlpha.');
    const imported = await run(['docs', 'import', docs, '--tenant', 'demo', '--db', db]);
    expect(imported.out).toBe(`Synced 1 document into demo/default: 1 created, 0 updated, 0 unchanged; the workspace has ${demoArticles.length + 1} documents indexed.`);
    expect(imported.err).toEqual(['Importing: 1/1 files (100%)', 'Indexing: 1/1 documents (100%)']);
  });
});
