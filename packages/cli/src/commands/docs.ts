import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { Engine } from '@panya/core';
import { MAX_BULK_ITEMS } from '@panya/core';
import cliProgress from 'cli-progress';
import type { Io } from '../runtime.js';
import { CommandError, fail } from './tenant.js';

const MARKDOWN = new Set(['.md', '.markdown']);
const BATCH = Math.min(200, MAX_BULK_ITEMS);

async function* markdownFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* markdownFiles(path);
    else if (entry.isFile() && MARKDOWN.has(extname(entry.name).toLowerCase())) yield path;
  }
}

/** The first level-1 heading, else the file name. */
export function titleOf(markdown: string, path: string): string {
  const h1 = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown);
  return (h1?.[1] ?? basename(path, extname(path))).slice(0, 300);
}

export async function importDocsCommand(engine: Engine, io: Io, dir: string, opts: { tenant: string; workspace?: string; progress?: boolean }) {
  const ctx = await engine.access.system(opts.tenant, opts.workspace);
  if (ctx.isErr()) fail(ctx.error);
  const files: string[] = [];
  try {
    for await (const f of markdownFiles(dir)) files.push(f);
  } catch (error) {
    throw new CommandError(`Cannot read ${dir}: ${(error as Error).message}`);
  }
  files.sort();
  const bar = opts.progress ? new cliProgress.SingleBar({ format: 'Importing [{bar}] {value}/{total} files', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
  bar?.start(files.length, 0);
  let created = 0;
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH);
    const create = await Promise.all(
      batch.map(async (path) => {
        const contentMd = await readFile(path, 'utf8');
        return { title: titleOf(contentMd, path), contentMd };
      }),
    );
    const result = await engine.documents.bulk(ctx.value, { create });
    if (result.isErr()) {
      bar?.stop();
      const named = 'issues' in result.error && result.error.issues ? result.error.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^create\[(\d+)\]/, (_m, n: string) => relative(dir, batch[Number(n)] ?? '')) })) : [];
      fail({ ...result.error, ...(named.length ? { issues: named } : {}) } as typeof result.error);
    }
    created += result.value.length;
    bar?.update(created);
  }
  bar?.stop();
  const indexed = await engine.ingest.drain();
  const counts = await engine.store.documents.countByStatus(ctx.value.scope);
  io.out(`Imported ${created} document${created === 1 ? '' : 's'} into ${opts.tenant}/${opts.workspace ?? 'default'}; indexed ${indexed}${counts.failed ? `, ${counts.failed} failed (see GET /api/docs)` : ''}.`);
  return created;
}
