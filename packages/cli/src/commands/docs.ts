import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import type { Engine, PutDocumentInput, SyncOutcome } from '@panya/core';
import { documentFieldsFromFrontMatter, MAX_UPLOAD_FILE_BYTES, parseInput, putDocumentSchema, splitFrontMatter } from '@panya/core';
import { convertUpload } from '@panya/convert';
import { progress } from '../progress.js';
import type { Io } from '../runtime.js';
import { drainWithProgress, type ProgressIo } from './reindex.js';
import { CommandError, fail } from './tenant.js';

const MARKDOWN = new Set(['.md', '.markdown']);
/** Converted the way uploads are. */
const CONVERTED = new Set(['.txt', '.html', '.htm']);

async function* importableFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    const ext = extname(entry.name).toLowerCase();
    if (entry.isDirectory()) yield* importableFiles(path);
    else if (entry.isFile() && (MARKDOWN.has(ext) || CONVERTED.has(ext))) yield path;
  }
}

/** The first level-1 heading, else the file name. */
export function titleOf(markdown: string, path: string): string {
  const h1 = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown);
  return (h1?.[1] ?? basename(path, extname(path))).slice(0, 300);
}

/** A file's external id: its path relative to the imported directory, with `/` on every platform. */
export const externalIdOf = (dir: string, path: string) => relative(dir, path).split(sep).join('/');

type Read = { externalId: string; document: PutDocumentInput } | { externalId: string; empty: true } | { externalId: string; problem: string };

/** One file as a document: front matter (Markdown) sets fields and metadata and is not indexed. */
async function readDocument(dir: string, path: string): Promise<Read> {
  const externalId = externalIdOf(dir, path);
  const size = (await stat(path)).size;
  if (size > MAX_UPLOAD_FILE_BYTES) return { externalId, problem: `larger than ${MAX_UPLOAD_FILE_BYTES} bytes` };
  const bytes = await readFile(path);
  let title: unknown;
  let contentMd: string;
  let fields: Omit<ReturnType<typeof documentFieldsFromFrontMatter>, 'title'> = { metadata: {} };
  try {
    if (MARKDOWN.has(extname(path).toLowerCase())) {
      const { data, body } = splitFrontMatter(bytes.toString('utf8'));
      ({ title, ...fields } = documentFieldsFromFrontMatter(data));
      contentMd = body;
      title ??= titleOf(body, path);
    } else {
      ({ title, contentMd } = await convertUpload({ filename: basename(path), bytes }));
    }
  } catch (error) {
    return { externalId, problem: (error as Error).message };
  }
  if (contentMd.trim() === '') return { externalId, empty: true };
  const document = { ...fields, title, contentMd } as PutDocumentInput;
  const valid = parseInput(putDocumentSchema, document);
  if (valid.isErr()) {
    const issues = 'issues' in valid.error ? (valid.error.issues ?? []) : [];
    return { externalId, problem: issues.map((i) => `${i.path || '(document)'}: ${i.message}`).join('; ') || valid.error.message };
  }
  return { externalId, document };
}

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  skippedEmpty: string[];
}

/**
 * Syncs a directory into a workspace: each file is the document whose external id is its relative
 * path. Every file is read and checked before anything is written (one bad file stops the import
 * and changes nothing); unchanged files write nothing, so a second run is a no-op; `prune` deletes
 * the workspace's documents whose external id no file has any more.
 */
export async function importDocsCommand(engine: Engine, io: Io, dir: string, opts: { tenant: string; workspace?: string; prune?: boolean } & ProgressIo): Promise<ImportSummary> {
  const ctx = await engine.access.system(opts.tenant, opts.workspace);
  if (ctx.isErr()) fail(ctx.error);
  const files: string[] = [];
  try {
    for await (const f of importableFiles(dir)) files.push(f);
  } catch (error) {
    throw new CommandError(`Cannot read ${dir}: ${(error as Error).message}`);
  }
  files.sort();
  const read: Read[] = [];
  for (const path of files) read.push(await readDocument(dir, path));
  const problems = read.filter((r): r is Extract<Read, { problem: string }> => 'problem' in r);
  if (problems.length) throw new CommandError(`Nothing was imported: ${problems.length} file${problems.length === 1 ? '' : 's'} cannot be imported.\n${problems.map((p) => `  ${p.externalId}: ${p.problem}`).join('\n')}`);

  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, deleted: 0, skippedEmpty: [] };
  const toWrite = read.filter((r): r is Extract<Read, { document: PutDocumentInput }> => 'document' in r);
  summary.skippedEmpty = read.filter((r) => 'empty' in r).map((r) => r.externalId);
  const progressIo = { tty: opts.tty, ...(opts.everyMs !== undefined ? { everyMs: opts.everyMs } : {}) };
  const bar = progress(io, 'Importing', toWrite.length, { ...progressIo, unit: 'files' });
  for (const [i, { externalId, document }] of toWrite.entries()) {
    const written = await engine.documents.upsertByExternalId(ctx.value, externalId, document);
    if (written.isErr()) {
      bar.stop();
      fail(written.error, externalId);
    }
    summary[written.value.outcome satisfies SyncOutcome]++;
    bar.update(i + 1);
  }
  bar.stop();
  if (opts.prune) {
    // An empty file still exists: its document stays (it is reported, not deleted).
    const present = new Set(read.map((r) => r.externalId));
    const listed = await engine.documents.listExternalIds(ctx.value);
    if (listed.isErr()) fail(listed.error);
    for (const { externalId } of listed.value) {
      if (present.has(externalId)) continue;
      const removed = await engine.documents.deleteByExternalId(ctx.value, externalId);
      if (removed.isOk()) summary.deleted++;
    }
  }
  // Counted in the store once no document is queued: what a running server's workers indexed counts too.
  const counts = await drainWithProgress(engine, io, 'Indexing', ctx.value.scope, progressIo);
  const where = `${opts.tenant}/${opts.workspace ?? 'default'}`;
  const plural = (n: number) => `${n} document${n === 1 ? '' : 's'}`;
  io.out(
    `Synced ${plural(toWrite.length)} into ${where}: ${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged` +
      `${opts.prune ? `, ${summary.deleted} deleted` : ''}; the workspace has ${plural(counts.indexed)} indexed${counts.failed ? `, ${counts.failed} failed (see GET /api/docs)` : ''}.`,
  );
  if (summary.skippedEmpty.length) io.out(`Skipped ${summary.skippedEmpty.length} empty file${summary.skippedEmpty.length === 1 ? '' : 's'}: ${summary.skippedEmpty.join(', ')}`);
  return summary;
}
