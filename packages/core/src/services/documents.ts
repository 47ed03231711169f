import { err, ok, type Result } from 'neverthrow';
import { errors, panyaError, type FieldIssue, type PanyaError } from '../errors.js';
import type { DocumentPatch, DocumentRecord, Page, Scope, Store } from '../ports/store.js';
import {
  bulkDocumentsSchema,
  createDocumentSchema,
  listDocumentsSchema,
  updateDocumentSchema,
  type BulkDocumentsInput,
  type CreateDocumentInput,
  type ListDocumentsInput,
  type UpdateDocumentInput,
} from '../schemas/documents.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from './context.js';
import type { IngestService } from './ingest.js';
import type { IngestWorker } from './ingest-worker.js';

export type BulkItemResult =
  | { op: 'create'; index: number; id: string; status: 'created' }
  | { op: 'update'; index: number; id: string; status: 'updated' }
  | { op: 'delete'; index: number; id: string; status: 'deleted' };

/** Told when documents need (re)indexing, so a worker can pick them up without polling delay. */
export interface IndexingNotifier {
  documentsChanged(scope: Scope, ids: readonly string[]): void;
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
  ingest?: Pick<IngestService, 'processBatch'>;
  worker?: Pick<IngestWorker, 'waitFor'>;
}

export function createDocumentService(deps: DocumentServiceDeps) {
  const { store, clock, ids } = deps;

  /** Indexes the document now (or waits for the worker that holds it) and returns its final state. */
  async function settle(scope: Scope, doc: DocumentRecord): Promise<DocumentRecord> {
    if (!deps.ingest) return doc;
    await deps.ingest.processBatch([doc.id]);
    const current = await store.documents.get(scope, doc.id);
    if (current && (current.status === 'pending' || current.status === 'indexing')) await deps.worker?.waitFor(scope, doc.id);
    return (await store.documents.get(scope, doc.id)) ?? doc;
  }
  const notify = (scope: Scope, changed: string[]) => {
    if (changed.length > 0) deps.indexing?.documentsChanged(scope, changed);
  };

  function newDocument(ctx: RequestContext, input: ReturnType<typeof createDocumentSchema.parse>, now: string): DocumentRecord {
    return {
      id: ids.next('doc'),
      tenantId: ctx.scope.tenantId,
      workspaceId: ctx.scope.workspaceId,
      title: input.title,
      contentMd: input.contentMd,
      url: input.url,
      publicSurfaces: input.publicSurfaces,
      status: 'pending',
      error: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  function toPatch(input: UpdateDocumentInput, now: string): DocumentPatch {
    const patch: DocumentPatch = { updatedAt: now };
    if (input.title !== undefined) patch.title = input.title.trim();
    if (input.contentMd !== undefined) patch.contentMd = input.contentMd;
    if (input.url !== undefined) patch.url = input.url;
    if (input.publicSurfaces !== undefined) patch.publicSurfaces = [...new Set(input.publicSurfaces)];
    if (needsReindex(input)) Object.assign(patch, { status: 'pending', error: null });
    return patch;
  }

  async function deleteInScope(tx: Store, scope: Scope, id: string): Promise<boolean> {
    await tx.search.removeDocumentChunks(scope, id);
    return tx.documents.delete(scope, id);
  }

  return {
    async create(ctx: RequestContext, input: CreateDocumentInput | unknown, options: WriteOptions = {}): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(createDocumentSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const doc = newDocument(ctx, parsed.value, clock.now().toISOString());
      await store.documents.insert(doc);
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

    async list(ctx: RequestContext, input: ListDocumentsInput | unknown): Promise<Result<Page<DocumentRecord>, PanyaError>> {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(listDocumentsSchema, input, 'query');
      if (parsed.isErr()) return err(parsed.error);
      const after = parsed.value.cursor ? decodeCursor(parsed.value.cursor) : undefined;
      if (after !== undefined && !after.startsWith('doc_')) return err(errors.invalid('Invalid cursor.', [{ path: 'cursor', message: 'not a cursor from this API' }]));
      const page = await store.documents.list(ctx.scope, { limit: parsed.value.limit, ...(after ? { after } : {}) });
      return ok({ items: page.items, nextCursor: page.nextCursor ? encodeCursor(page.nextCursor) : null });
    },

    async update(ctx: RequestContext, id: string, input: UpdateDocumentInput | unknown, options: WriteOptions = {}): Promise<Result<DocumentRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(updateDocumentSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const updated = await store.documents.update(ctx.scope, id, toPatch(parsed.value, clock.now().toISOString()));
      if (!updated) return err(errors.notFound('Document'));
      if (!needsReindex(parsed.value)) return ok(updated);
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
        const doc = await tx.documents.update(ctx.scope, id, { status: 'pending', error: null, updatedAt: now });
        await tx.audit.append({
          id: ids.next('evt'),
          tenantId: ctx.scope.tenantId,
          workspaceId: ctx.scope.workspaceId,
          type: 'doc.reindex',
          actor: ctx.principal.id,
          subjectId: id,
          data: { previousStatus: before.status, ...(before.error ? { previousError: before.error } : {}) },
          createdAt: now,
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
      return runInTransaction(store, async (tx) =>
        (await deleteInScope(tx, ctx.scope, id)) ? ok(undefined) : err(errors.notFound('Document')),
      );
    },

    /**
     * Validates every item first (one bad item → 400 naming each, nothing written), then
     * applies all operations in one transaction. An id unknown in this workspace fails the
     * whole request with 404 naming each such item, and nothing is written.
     */
    async bulk(ctx: RequestContext, input: BulkDocumentsInput | unknown): Promise<Result<BulkItemResult[], PanyaError>> {
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
      const result = await runInTransaction(store, async (tx) => {
        const results: BulkItemResult[] = [];
        const missing: FieldIssue[] = [];
        for (const [index, item] of create.entries()) {
          const doc = newDocument(ctx, item, now);
          await tx.documents.insert(doc);
          changed.push(doc.id);
          results.push({ op: 'create', index, id: doc.id, status: 'created' });
        }
        for (const [index, { id, ...fields }] of update.entries()) {
          const updated = await tx.documents.update(ctx.scope, id, toPatch(fields, now));
          if (!updated) missing.push({ path: `update[${index}].id`, message: `document ${id} not found` });
          else {
            if (needsReindex(fields)) changed.push(id);
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
        return ok(results);
      });
      if (result.isOk()) notify(ctx.scope, changed.filter((id) => !remove.includes(id)));
      return result;
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
