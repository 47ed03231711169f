import { createHash } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { errors, isStoreConflict, panyaError, type FieldIssue, type PanyaError } from '../errors.js';
import type { DocumentPatch, DocumentRecord, Page, PublicSurface, Scope, Store } from '../ports/store.js';
import { documentVisibility } from '../audiences/rules.js';
import {
  bulkDocumentsSchema,
  createDocumentSchema,
  externalIdSchema,
  listDocumentsSchema,
  putDocumentSchema,
  updateDocumentSchema,
  type BulkDocumentsInput,
  type PutDocumentInput,
  type CreateDocumentInput,
  type ListDocumentsInput,
  type UpdateDocumentInput,
} from './schemas.js';
import type { DocumentJson, DocumentSummary, List } from '../schemas/responses.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import type { IngestService } from './ingest.js';
import type { IndexingNotifier, IngestWorker } from './ingest-worker.js';
import { appendAudit, auditActor } from '../audit/audit.js';

export type { IndexingNotifier } from './ingest-worker.js';

/** What an upsert by external id did. */
export type SyncOutcome = 'created' | 'updated' | 'unchanged';

export interface AppliedSyncEvent {
  /** The event id was applied before: nothing was done. */
  duplicate: boolean;
  outcome: SyncOutcome | 'deleted' | 'absent' | null;
  documentId: string | null;
}

type SyncedFields = { title: string; contentMd: string; url: string | null; publicSurfaces: PublicSurface[]; audiences?: string[] | undefined; metadata: Record<string, unknown> };

/** A content-sync event from a connector: upsert or delete the document with this external id. */
export type SyncEvent =
  | { id: string; type: 'document.upsert'; externalId: string; document: PutDocumentInput }
  | { id: string; type: 'document.delete'; externalId: string };

/** JSON with object keys in sorted order: equal values give equal text whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The fields of `next` that differ from the stored document (a sync writes only those). */
function changedFields(doc: DocumentRecord, next: SyncedFields) {
  const changed: { title?: string; contentMd?: string; url?: string | null; publicSurfaces?: PublicSurface[]; audiences?: string[]; metadata?: Record<string, unknown> } = {};
  if (doc.title !== next.title) changed.title = next.title;
  if (doc.contentMd !== next.contentMd) changed.contentMd = next.contentMd;
  if (doc.url !== next.url) changed.url = next.url;
  // The whole document: audiences left out follow the surfaces alone.
  const visibility = documentVisibility({ publicSurfaces: next.publicSurfaces, audiences: next.audiences ?? [] });
  if (canonical([...doc.publicSurfaces].sort()) !== canonical([...visibility.publicSurfaces].sort())) changed.publicSurfaces = visibility.publicSurfaces;
  if (canonical(doc.audiences) !== canonical(visibility.audiences)) changed.audiences = visibility.audiences;
  if (canonical(doc.metadata) !== canonical(next.metadata)) changed.metadata = next.metadata;
  return changed;
}

/** A validated document to create. */
type CreateItem = ReturnType<typeof createDocumentSchema.parse>;

export type BulkItemResult =
  | { op: 'create'; index: number; id: string; status: 'created' }
  | { op: 'update'; index: number; id: string; status: 'updated' }
  | { op: 'delete'; index: number; id: string; status: 'deleted' };


/** A document as the API shows it: no internal tenant id. */
export function publicDocument({ tenantId: _tenant, ...doc }: DocumentRecord): DocumentJson {
  return doc;
}

/**
 * An uploaded document as the upload answers it: everything but `contentMd`. The client has just
 * sent the content; echoing up to 32 MB back would cost the serving thread more than the upload.
 */
export function uploadedDocument({ tenantId: _tenant, contentMd: _content, ...doc }: DocumentRecord): Omit<DocumentJson, 'contentMd'> {
  return doc;
}

export function documentSummary(doc: DocumentRecord): DocumentSummary {
  return { id: doc.id, title: doc.title, url: doc.url, status: doc.status, updatedAt: doc.updatedAt };
}

/** A store page in the API's one list envelope. */
export function toList<T, U>(page: Page<T>, map: (item: T) => U): List<U> {
  return { data: page.items.map(map), hasMore: page.nextCursor !== null, nextCursor: page.nextCursor };
}

/** Longest title filter of `browse`. */
export const TITLE_QUERY_MAX = 200;
/** Documents read per `browse` call with a title filter before it hands back a cursor. */
const TITLE_SCAN_LIMIT = 1_000;
const SCAN_PAGE = 100;
const DEFAULT_PAGE = 20;
const normalizeTitle = (text: string) => text.normalize('NFKC').toLowerCase();

/** Converted upload files, and the form fields that apply to them. */
export interface UploadInput {
  files: { title: string; contentMd: string }[];
  /** Form field `title`: names the document when exactly one file is sent. */
  title?: unknown;
  /** Form field `publicSurfaces`: comma-separated. */
  publicSurfaces?: unknown;
}

const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

/** Content changes send a document back to the ingest queue. */
function needsReindex(patch: { title?: string | undefined; contentMd?: string | undefined }): boolean {
  return patch.title !== undefined || patch.contentMd !== undefined;
}

export interface WriteOptions {
  /** Index before answering (the returned document is `indexed` or `failed`). */
  wait?: boolean;
}

export interface DocumentServiceDeps extends ServiceDeps {
  indexing?: IndexingNotifier;
  /** After any committed write in a workspace (the help center purges its cached pages). */
  changed?: (scope: Scope) => Promise<unknown>;
  ingest?: Pick<IngestService, 'processBatch'>;
  worker?: Pick<IngestWorker, 'waitFor'>;
}

/**
 * What the audit log keeps of a document: its public fields and its version (the SHA-256 of its
 * Markdown, so two entries show whether what the bot can say changed), never the content itself.
 */
export function documentAuditSummary(doc: DocumentRecord): Record<string, unknown> {
  return {
    title: doc.title,
    url: doc.url,
    publicSurfaces: doc.publicSurfaces,
    externalId: doc.externalId ?? null,
    version: createHash('sha256').update(doc.contentMd).digest('hex').slice(0, 16),
    contentChars: doc.contentMd.length,
  };
}

/** A bulk change's entry: the ids per operation. */
function bulkAuditData(results: readonly BulkItemResult[]): Record<string, unknown> {
  const ids = (op: BulkItemResult['op']) => results.filter((r) => r.op === op && 'id' in r).map((r) => (r as { id: string }).id);
  return { created: ids('create'), updated: ids('update'), deleted: ids('delete') };
}

export function createDocumentService(deps: DocumentServiceDeps) {
  const { store, clock, ids } = deps;

  /** Indexes the document now (or waits for the worker that holds it) and returns its final state. */
  async function settle(scope: Scope, doc: DocumentRecord): Promise<DocumentRecord> {
    if (deps.ingest) await deps.ingest.processBatch([doc.id]);
    else if (deps.worker) deps.indexing?.documentsChanged(scope, [doc.id]);
    else return doc;
    const current = await store.documents.get(scope, doc.id);
    if (current && (current.status === 'pending' || current.status === 'indexing')) await deps.worker?.waitFor(scope, doc.id);
    return (await store.documents.get(scope, doc.id)) ?? doc;
  }
  /** `settle` for several documents: indexing batches until none is left queued, then waits for any a worker holds. */
  async function settleMany(scope: Scope, ids: string[]): Promise<void> {
    if (ids.length === 0 || (!deps.ingest && !deps.worker)) return;
    // In-process: index them now. Otherwise the ingest processes (already notified) do, and this waits.
    if (deps.ingest) while ((await deps.ingest.processBatch(ids)).length > 0);
    for (const doc of await store.documents.getMany(scope, ids)) {
      if (doc.status === 'pending' || doc.status === 'indexing') await deps.worker?.waitFor(scope, doc.id);
    }
  }
  const notify = (scope: Scope, changed: string[]) => {
    if (changed.length > 0) deps.indexing?.documentsChanged(scope, changed);
  };
  /** Runs the write hook without holding up the answer; its own failures are its own to log. */
  const afterWrite = (scope: Scope) => {
    deps.changed?.(scope).catch((error) => deps.logger.warn('documents.changed hook failed', { error: (error as Error).message }));
  };

  function newDocument(ctx: RequestContext, input: CreateItem, now: string): DocumentRecord {
    return {
      id: ids.next('doc'),
      tenantId: ctx.scope.tenantId,
      workspaceId: ctx.scope.workspaceId,
      title: input.title,
      contentMd: input.contentMd,
      url: input.url,
      ...documentVisibility({ publicSurfaces: input.publicSurfaces, audiences: input.audiences ?? [] }),
      externalId: input.externalId,
      metadata: input.metadata,
      status: 'pending',
      error: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Writes outside a transaction: a taken external id is a conflict, not a server fault. */
  async function conflictAsError<T>(write: () => Promise<T>): Promise<Result<T, PanyaError>> {
    try {
      return ok(await write());
    } catch (error) {
      if (isStoreConflict(error)) return err(errors.conflict('Another document of this workspace has that externalId.'));
      throw error;
    }
  }

  /**
   * Creates or updates (through `db`: the store, or a transaction) the workspace's document with
   * this external id, writing only what differs. Returns null when a concurrent writer created or
   * deleted it in between (the caller reads again); `reindex` says whether ingest must run.
   */
  async function writeByExternalId(db: Store, scope: Scope, ctx: RequestContext, externalId: string, next: SyncedFields) {
    const now = clock.now().toISOString();
    const existing = await db.documents.getByExternalId(scope, externalId);
    if (!existing) {
      const doc = newDocument(ctx, { ...next, metadata: next.metadata as Record<string, never>, externalId }, now);
      const inserted = await conflictAsError(() => db.documents.insert(doc));
      return inserted.isOk() ? { document: doc, outcome: 'created' as SyncOutcome, reindex: true } : null;
    }
    const changed = changedFields(existing, next);
    if (Object.keys(changed).length === 0) return { document: existing, outcome: 'unchanged' as SyncOutcome, reindex: false };
    const document = await db.documents.update(scope, existing.id, toPatch(changed, now));
    return document ? { document, outcome: 'updated' as SyncOutcome, reindex: needsReindex(changed) } : null;
  }

  function syncedFields(input: PutDocumentInput): Result<SyncedFields, PanyaError> {
    const parsed = parseInput(putDocumentSchema, input);
    return parsed.map((v) => ({ ...v, title: v.title.trim() }));
  }

  /**
   * Creates or updates the workspace's document with this external id, writing only what
   * differs: the same content twice changes nothing (no new revision, no re-index). Two
   * concurrent creates of one id meet the unique index; the loser retries as an update.
   */
  async function upsertByExternalId(
    ctx: RequestContext,
    externalId: string,
    input: PutDocumentInput,
    options: WriteOptions = {},
  ): Promise<Result<{ document: DocumentRecord; outcome: SyncOutcome }, PanyaError>> {
    const allowed = requireScope(ctx, 'write');
    if (allowed.isErr()) return err(allowed.error);
    const id = parseInput(externalIdSchema, externalId, 'path');
    if (id.isErr()) return err(id.error);
    const next = syncedFields(input);
    if (next.isErr()) return err(next.error);
    for (let attempt = 0; attempt < 3; attempt++) {
      const written = await writeByExternalId(store, ctx.scope, ctx, id.value, next.value);
      if (!written) continue;
      const { document, outcome } = written;
      if (outcome !== 'unchanged') afterWrite(ctx.scope);
      if (!written.reindex) return ok({ document, outcome });
      if (options.wait) return ok({ document: await settle(ctx.scope, document), outcome });
      notify(ctx.scope, [document.id]);
      return ok({ document, outcome });
    }
    return err(errors.conflict('The document kept changing while it was written; retry.'));
  }

  /**
   * Applies one connector event exactly once per event id: the event id is recorded in the same
   * transaction as the write, so a replay (or a retry after a lost answer) is a no-op.
   */
  async function applySyncEvent(ctx: RequestContext, event: SyncEvent): Promise<Result<AppliedSyncEvent, PanyaError>> {
    const allowed = requireScope(ctx, 'write');
    if (allowed.isErr()) return err(allowed.error);
    const next = event.type === 'document.upsert' ? syncedFields(event.document) : null;
    if (next?.isErr()) return err(next.error);
    const now = clock.now().toISOString();
    let reindex: string | null = null;
    const applied = await runInTransaction<AppliedSyncEvent>(store, async (tx) => {
      if (!(await tx.connectors.recordEvent(ctx.scope.tenantId, ctx.scope.workspaceId, event.id, now))) return ok({ duplicate: true, outcome: null, documentId: null });
      const webhook = { kind: 'webhook' as const, id: event.id };
      if (event.type === 'document.delete') {
        const doc = await tx.documents.getByExternalId(ctx.scope, event.externalId);
        if (doc) await deleteInScope(tx, ctx.scope, doc.id);
        if (doc) await appendAudit(tx, deps, ctx.scope.tenantId, webhook, { type: 'document.deleted', workspaceId: ctx.scope.workspaceId, subjectId: doc.id, before: documentAuditSummary(doc), after: null });
        return ok({ duplicate: false, outcome: doc ? ('deleted' as const) : ('absent' as const), documentId: doc?.id ?? null });
      }
      const written = await writeByExternalId(tx, ctx.scope, ctx, event.externalId, next!._unsafeUnwrap());
      if (!written) return err(errors.conflict('The document changed while the event was applied; deliver it again.'));
      if (written.reindex) reindex = written.document.id;
      if (written.outcome !== 'unchanged') {
        await appendAudit(tx, deps, ctx.scope.tenantId, webhook, { type: written.outcome === 'created' ? 'document.created' : 'document.updated', workspaceId: ctx.scope.workspaceId, subjectId: written.document.id, after: documentAuditSummary(written.document) });
      }
      return ok({ duplicate: false, outcome: written.outcome, documentId: written.document.id });
    });
    if (applied.isOk() && applied.value.outcome !== null && applied.value.outcome !== 'unchanged' && applied.value.outcome !== 'absent') afterWrite(ctx.scope);
    if (applied.isOk() && reindex) notify(ctx.scope, [reindex]);
    return applied;
  }

  function toPatch(input: Omit<DocumentPatch, 'status' | 'error' | 'updatedAt'>, now: string): DocumentPatch {
    const patch: DocumentPatch = { updatedAt: now };
    if (input.title !== undefined) patch.title = input.title.trim();
    if (input.contentMd !== undefined) patch.contentMd = input.contentMd;
    if (input.url !== undefined) patch.url = input.url;
    if (input.publicSurfaces !== undefined) patch.publicSurfaces = [...new Set(input.publicSurfaces)];
    if (input.audiences !== undefined) patch.audiences = input.audiences;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    if (input.externalId !== undefined) patch.externalId = input.externalId;
    if (needsReindex(input)) Object.assign(patch, { status: 'pending', error: null, requeue: true });
    return patch;
  }

  /**
   * A patch naming audiences or public surfaces names both, kept equal (`documentVisibility`);
   * the stored document supplies the one left out.
   */
  async function withVisibility<T extends { audiences?: string[] | undefined; publicSurfaces?: PublicSurface[] | undefined }>(db: Store, scope: Scope, id: string, fields: T): Promise<T> {
    if (fields.audiences === undefined && fields.publicSurfaces === undefined) return fields;
    const current = await db.documents.get(scope, id);
    return current ? { ...fields, ...documentVisibility(fields, current) } : fields;
  }

  async function deleteInScope(tx: Store, scope: Scope, id: string): Promise<boolean> {
    await tx.search.removeDocumentChunks(scope, id);
    return tx.documents.delete(scope, id);
  }

  async function list(ctx: RequestContext, input: ListDocumentsInput): Promise<Result<Page<DocumentRecord>, PanyaError>> {
    const allowed = requireScope(ctx, 'read');
    if (allowed.isErr()) return err(allowed.error);
    const parsed = parseInput(listDocumentsSchema, input, 'query');
    if (parsed.isErr()) return err(parsed.error);
    const after = parsed.value.cursor ? decodeCursor(parsed.value.cursor) : undefined;
    if (after !== undefined && !after.startsWith('doc_')) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
    const page = await store.documents.list(ctx.scope, { limit: parsed.value.limit, ...(after ? { after } : {}) });
    return ok({ items: page.items, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
  }

  /**
   * Inserts `docs` all or none: in one batch where the store writes batches (off this thread:
   * uploads run to 32 MB), else one by one in a transaction.
   */
  function insertAll(docs: readonly DocumentRecord[]): Promise<Result<void, PanyaError>> {
    return conflictAsError(() =>
      store.documents.insertMany
        ? store.documents.insertMany(docs)
        : store.transaction(async (tx) => {
            for (const doc of docs) await tx.documents.insert(doc);
          }),
    );
  }

  /** An import: creates `items` all or none; their ids go to `changed`. */
  async function importAll(ctx: RequestContext, items: readonly CreateItem[], now: string, changed: string[]): Promise<Result<BulkItemResult[], PanyaError>> {
    const docs = items.map((item) => newDocument(ctx, item, now));
    const written = await insertAll(docs);
    if (written.isErr()) return err(written.error);
    changed.push(...docs.map((d) => d.id));
    return ok(docs.map((doc, index) => ({ op: 'create', index, id: doc.id, status: 'created' })));
  }

  async function bulk(ctx: RequestContext, input: BulkDocumentsInput, options: WriteOptions = {}): Promise<Result<BulkItemResult[], PanyaError>> {
    const allowed = requireScope(ctx, 'write');
    if (allowed.isErr()) return err(allowed.error);
    const parsed = parseInput(bulkDocumentsSchema, input);
    if (parsed.isErr()) return err(parsed.error);
    const { create = [], update = [], delete: remove = [] } = parsed.value;
    const emptyUpdates: FieldIssue[] = update.flatMap((u, i) =>
      Object.keys(u).length > 1 ? [] : [{ path: `update[${i}]`, message: 'at least one field to change is required' }],
    );
    if (emptyUpdates.length) return err(errors.invalid('Invalid request body: update items without changes.', emptyUpdates));
    const now = clock.now().toISOString();
    const changed: string[] = [];
    // An import (creates only) is written like an upload: one batch, off this thread where the
    // store can, instead of a transaction of a thousand inserts holding the store's connection.
    const result = update.length === 0 && remove.length === 0 ? await importAll(ctx, create, now, changed) : await runInTransaction(store, async (tx) => {
      const results: BulkItemResult[] = [];
      const missing: FieldIssue[] = [];
      for (const [index, item] of create.entries()) {
        const doc = newDocument(ctx, item, now);
        await tx.documents.insert(doc);
        changed.push(doc.id);
        results.push({ op: 'create', index, id: doc.id, status: 'created' });
      }
      for (const [index, { id, ...fields }] of update.entries()) {
        const updated = await tx.documents.update(ctx.scope, id, toPatch(await withVisibility(tx, ctx.scope, id, fields), now));
        if (!updated) missing.push({ path: `update[${index}].id`, message: `document ${id} not found` });
        else {
          if (needsReindex(fields)) {
            changed.push(id);
            await tx.feedback.markAddressed(ctx.scope, id, now);
          }
          results.push({ op: 'update', index, id, status: 'updated' });
        }
      }
      for (const [index, id] of remove.entries()) {
        if (!(await deleteInScope(tx, ctx.scope, id))) missing.push({ path: `delete[${index}]`, message: `document ${id} not found` });
        else results.push({ op: 'delete', index, id, status: 'deleted' });
      }
      if (missing.length) {
        return err(panyaError('not_found', { resource: 'Document', message: 'Some documents were not found; nothing was changed.', issues: missing }));
      }
      await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'documents.bulk_changed', workspaceId: ctx.scope.workspaceId, data: bulkAuditData(results) });
      return ok(results);
    });
    // An import is written in batches outside a transaction: its entry follows the write.
    if (result.isOk() && update.length === 0 && remove.length === 0) {
      await appendAudit(store, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'documents.bulk_changed', workspaceId: ctx.scope.workspaceId, data: bulkAuditData(result.value) });
    }
    const indexed = changed.filter((id) => !remove.includes(id));
    if (result.isOk()) afterWrite(ctx.scope);
    if (result.isOk()) notify(ctx.scope, indexed);
    if (result.isOk() && options.wait) await settleMany(ctx.scope, indexed);
    return result;
  }

  return {
    async create(ctx: RequestContext, input: CreateDocumentInput, options: WriteOptions = {}): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(createDocumentSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const doc = newDocument(ctx, parsed.value, clock.now().toISOString());
      const inserted = await conflictAsError(() =>
        store.transaction(async (tx) => {
          await tx.documents.insert(doc);
          await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'document.created', workspaceId: ctx.scope.workspaceId, subjectId: doc.id, before: null, after: documentAuditSummary(doc) });
        }),
      );
      if (inserted.isErr()) return err(inserted.error);
      afterWrite(ctx.scope);
      if (options.wait) return ok(await settle(ctx.scope, doc));
      notify(ctx.scope, [doc.id]);
      return ok(doc);
    },

    async get(ctx: RequestContext, id: string): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const doc = await store.documents.get(ctx.scope, id);
      return doc ? ok(doc) : err(errors.notFound('Document'));
    },

    list,

    /**
     * A page of documents, newest first, optionally only those whose title contains every word
     * of `query`. With a filter, pages are scanned (at most TITLE_SCAN_LIMIT documents per call)
     * until `limit` titles match; the cursor handed back resumes right after the last document
     * returned, so no match is skipped or repeated.
     */
    async browse(ctx: RequestContext, input: { cursor?: string | undefined; limit?: number | undefined; query?: string | undefined }): Promise<Result<Page<DocumentRecord>, PanyaError>> {
      const limit = input.limit ?? DEFAULT_PAGE;
      const page = (cursor: string | undefined, size: number) => list(ctx, { limit: size, ...(cursor !== undefined ? { cursor } : {}) });
      if (!input.query) return page(input.cursor, limit);
      const words = normalizeTitle(input.query).split(/\s+/).filter(Boolean);
      const matches = (doc: DocumentRecord) => {
        const title = normalizeTitle(doc.title);
        return words.every((w) => title.includes(w));
      };
      const found: DocumentRecord[] = [];
      let cursor = input.cursor;
      let scanned = 0;
      for (;;) {
        const listed = await page(cursor, SCAN_PAGE);
        if (listed.isErr()) return err(listed.error);
        const hits = listed.value.items.filter(matches);
        const room = limit - found.length;
        if (hits.length > room) {
          // More matches than fit: re-read this page up to the last one taken, for a cursor right after it.
          const upTo = listed.value.items.indexOf(hits[room - 1]!) + 1;
          const cut = await page(cursor, upTo);
          if (cut.isErr()) return err(cut.error);
          found.push(...hits.slice(0, room));
          return ok({ items: found, nextCursor: cut.value.nextCursor });
        }
        found.push(...hits);
        scanned += listed.value.items.length;
        cursor = listed.value.nextCursor ?? undefined;
        if (!cursor || found.length === limit || scanned >= TITLE_SCAN_LIMIT) return ok({ items: found, nextCursor: cursor ?? null });
      }
    },

    async update(ctx: RequestContext, id: string, input: UpdateDocumentInput, options: WriteOptions = {}): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(updateDocumentSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const fields = parsed.value;
      // One transaction: a visibility change reads the other field first (so none is lost), and
      // the audit entry commits with the change it records.
      const written = await conflictAsError(() =>
        store.transaction(async (tx) => {
          const before = await tx.documents.get(ctx.scope, id);
          if (!before) return null;
          const patch = await withVisibility(tx, ctx.scope, id, fields);
          const after = await tx.documents.update(ctx.scope, id, toPatch(patch, clock.now().toISOString()));
          if (after) await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'document.updated', workspaceId: ctx.scope.workspaceId, subjectId: id, before: documentAuditSummary(before), after: documentAuditSummary(after) });
          return after;
        }),
      );
      if (written.isErr()) return err(written.error);
      const updated = written.value;
      if (!updated) return err(errors.notFound('Document'));
      afterWrite(ctx.scope);
      if (!needsReindex(parsed.value)) return ok(updated);
      // Its text changed: feedback given on the earlier version is addressed by this edit.
      await store.feedback.markAddressed(ctx.scope, id, updated.updatedAt);
      if (options.wait) return ok(await settle(ctx.scope, updated));
      notify(ctx.scope, [id]);
      return ok(updated);
    },

    /**
     * Sends a document back through ingest from its stored `contentMd` (e.g. to retry a failed
     * ingest) and records the audit event `doc.reindex`.
     */
    async reindex(ctx: RequestContext, id: string, options: WriteOptions = {}): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now().toISOString();
      const queued = await runInTransaction(store, async (tx) => {
        const before = await tx.documents.get(ctx.scope, id);
        if (!before) return err(errors.notFound('Document'));
        const doc = await tx.documents.update(ctx.scope, id, { status: 'pending', error: null, updatedAt: now, requeue: true });
        await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), {
          type: 'doc.reindex',
          workspaceId: ctx.scope.workspaceId,
          subjectId: id,
          data: { previousStatus: before.status, ...(before.error ? { previousError: before.error } : {}) },
        });
        return ok(doc!);
      });
      if (queued.isErr()) return queued;
      if (options.wait) return ok(await settle(ctx.scope, queued.value));
      notify(ctx.scope, [id]);
      return queued;
    },

    async delete(ctx: RequestContext, id: string): Promise<Result<void, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const deleted = await runInTransaction(store, async (tx) => {
        const before = await tx.documents.get(ctx.scope, id);
        if (!before || !(await deleteInScope(tx, ctx.scope, id))) return err(errors.notFound('Document'));
        await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'document.deleted', workspaceId: ctx.scope.workspaceId, subjectId: id, before: documentAuditSummary(before), after: null });
        return ok(undefined);
      });
      if (deleted.isOk()) afterWrite(ctx.scope);
      return deleted;
    },

    bulk,

    upsertByExternalId,

    applySyncEvent,

    async getByExternalId(ctx: RequestContext, externalId: string): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const doc = await store.documents.getByExternalId(ctx.scope, externalId);
      return doc ? ok(doc) : err(errors.notFound('Document'));
    },

    async deleteByExternalId(ctx: RequestContext, externalId: string): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const deleted = await runInTransaction(store, async (tx) => {
        const doc = await tx.documents.getByExternalId(ctx.scope, externalId);
        if (!doc) return err(errors.notFound('Document'));
        await deleteInScope(tx, ctx.scope, doc.id);
        return ok(doc);
      });
      if (deleted.isOk()) afterWrite(ctx.scope);
      return deleted;
    },

    /** The workspace's documents that carry an external id (what a sync compares against). */
    async listExternalIds(ctx: RequestContext): Promise<Result<{ id: string; externalId: string }[], PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      return ok(await store.documents.listExternalIds(ctx.scope));
    },

    /**
     * Creates one document per converted upload file, all or nothing. The form's `title` names
     * the document only when one file is sent; otherwise each file's own title is used.
     */
    async upload(ctx: RequestContext, input: UploadInput, options: WriteOptions = {}): Promise<Result<DocumentRecord[], PanyaError>> {
      if (input.files.length === 0) return err(errors.invalid('Send at least one file in the multipart field "file".', [{ path: 'file', message: 'required' }]));
      const surfaces = String(input.publicSurfaces ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const title = typeof input.title === 'string' && input.files.length === 1 ? input.title : undefined;
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      // Form text: validated as a bulk create, which names any surface it does not know.
      const create = input.files.map((file) => ({ title: (title ?? file.title).slice(0, 300) || 'Untitled', contentMd: file.contentMd, publicSurfaces: surfaces as PublicSurface[] }));
      const parsed = parseInput(bulkDocumentsSchema, { create });
      if (parsed.isErr()) return err(parsed.error);
      const now = clock.now().toISOString();
      const docs = (parsed.value.create ?? []).map((item) => newDocument(ctx, item, now));
      const written = await insertAll(docs);
      if (written.isErr()) return err(written.error);
      await appendAudit(store, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'documents.uploaded', workspaceId: ctx.scope.workspaceId, data: { created: docs.map((d) => d.id) }, after: { documents: docs.map((d) => ({ id: d.id, ...documentAuditSummary(d) })) } });
      afterWrite(ctx.scope);
      const ids = docs.map((d) => d.id);
      notify(ctx.scope, ids);
      // `wait`: answer once every file is indexed (or failed), like a single create. Without it the
      // records just written are the answer: nothing is read back.
      if (!options.wait) return ok(docs);
      await settleMany(ctx.scope, ids);
      return ok(await store.documents.getMany(ctx.scope, ids));
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
