import { err, ok } from 'neverthrow';
import { z } from 'zod';
import { bulkDocumentsSchema, createDocumentSchema, listDocumentsSchema, putDocumentSchema, updateDocumentSchema } from './schemas.js';
import { bulkResultSchema, documentSchema, listSchema, type DocumentJson } from '../schemas/responses.js';
import { publicDocument, toList } from './documents.js';
import { defineOperation } from '../operations/types.js';

const idParams = z.looseObject({ id: z.string() });
/** `?wait=true` answers once the document is indexed (or failed) instead of at once. */
const waitQuery = z.looseObject({ wait: z.unknown().optional() }).transform((q) => ({ wait: q.wait === 'true' || q.wait === '1' }));

/** The fields a document list may return (`?fields=`); `id` always comes. */
export const DOCUMENT_FIELDS = Object.keys(documentSchema.shape) as (keyof DocumentJson)[];
/** Lists leave out what can be large: a page of 100 whole documents would cost megabytes. */
export const DEFAULT_LIST_FIELDS = DOCUMENT_FIELDS.filter((f) => f !== 'contentMd');

/** `?fields=title,contentMd`: comma-separated document fields, each known. */
const fieldsParam = z
  .string()
  .transform((value) => value.split(',').map((f) => f.trim()).filter(Boolean))
  .pipe(z.array(z.enum(DOCUMENT_FIELDS as [string, ...string[]], { error: `unknown field; fields are ${DOCUMENT_FIELDS.join(', ')}` })).min(1, 'name at least one field'));

function pickFields(doc: DocumentJson, fields: readonly string[]): Partial<DocumentJson> & { id: string } {
  const picked: Partial<DocumentJson> & { id: string } = { id: doc.id };
  for (const field of fields) picked[field] = doc[field as keyof DocumentJson];
  return picked;
}

export const listDocuments = defineOperation({
  id: 'documents.list',
  http: { method: 'GET', path: '/docs' },
  scope: 'read',
  counted: false,
  input: { query: listDocumentsSchema.extend({ fields: fieldsParam.optional() }) },
  output: listSchema(documentSchema.partial().required({ id: true })),
  async run({ request, services }, { query: { fields, ...query } }) {
    const page = await services.documents.list(request, query);
    return page.map((p) => toList(p, (doc) => pickFields(publicDocument(doc), fields ?? DEFAULT_LIST_FIELDS)));
  },
});

export const createDocument = defineOperation({
  id: 'documents.create',
  http: { method: 'POST', path: '/docs', status: 201, location: (doc) => `/docs/${doc.id}` },
  scope: 'write',
  counted: false,
  input: { query: waitQuery, body: createDocumentSchema },
  output: documentSchema,
  async run({ request, services }, { query, body }) {
    return (await services.documents.create(request, body, query)).map(publicDocument);
  },
});

export const bulkDocuments = defineOperation({
  id: 'documents.bulk',
  http: { method: 'POST', path: '/docs/bulk' },
  scope: 'write',
  counted: false,
  input: { body: bulkDocumentsSchema },
  output: bulkResultSchema,
  async run({ request, services }, { body }) {
    return (await services.documents.bulk(request, body)).map((results) => ({ results }));
  },
});

export const getDocument = defineOperation({
  id: 'documents.get',
  http: { method: 'GET', path: '/docs/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: documentSchema,
  async run({ request, services }, { params }) {
    return (await services.documents.get(request, params.id)).map(publicDocument);
  },
});

export const updateDocument = defineOperation({
  id: 'documents.update',
  http: { method: 'PATCH', path: '/docs/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, query: waitQuery, body: updateDocumentSchema },
  output: documentSchema,
  async run({ request, services }, { params, query, body }) {
    return (await services.documents.update(request, params.id, body, query)).map(publicDocument);
  },
});

export const reindexDocument = defineOperation({
  id: 'documents.reindex',
  // Accepted for indexing (202), or indexed when the caller waited (200).
  http: { method: 'POST', path: '/docs/:id/reindex', status: ({ query }) => (query.wait ? 200 : 202) },
  scope: 'write',
  counted: false,
  input: { params: idParams, query: waitQuery },
  output: documentSchema,
  async run({ request, services }, { params, query }) {
    return (await services.documents.reindex(request, params.id, query)).map(publicDocument);
  },
});

export const deleteDocument = defineOperation({
  id: 'documents.delete',
  http: { method: 'DELETE', path: '/docs/:id', status: 204 },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.void(),
  async run({ request, services }, { params }) {
    const done = await services.documents.delete(request, params.id);
    return done.isOk() ? ok(undefined) : err(done.error);
  },
});

/*
 * Content sync: a document addressed by the caller's own id (`externalId`, percent-encoded in the
 * path). PUT creates or updates it — 201 when created, 200 otherwise — and `sync` says what it did;
 * sending the same document again is `unchanged` and changes nothing.
 */
const externalIdParams = z.looseObject({ externalId: z.string() });

export const putDocumentByExternalId = defineOperation({
  id: 'documents.putByExternalId',
  http: { method: 'PUT', path: '/docs/by-external-id/:externalId', status: (_input, out) => (out.sync === 'created' ? 201 : 200), location: (doc) => `/docs/${doc.id}` },
  scope: 'write',
  counted: false,
  input: { params: externalIdParams, query: waitQuery, body: putDocumentSchema },
  output: documentSchema.extend({ sync: z.enum(['created', 'updated', 'unchanged']) }),
  async run({ request, services }, { params, query, body }) {
    return (await services.documents.upsertByExternalId(request, params.externalId, body, query)).map(({ document, outcome }) => ({ ...publicDocument(document), sync: outcome }));
  },
});

export const getDocumentByExternalId = defineOperation({
  id: 'documents.getByExternalId',
  http: { method: 'GET', path: '/docs/by-external-id/:externalId' },
  scope: 'read',
  counted: false,
  input: { params: externalIdParams },
  output: documentSchema,
  async run({ request, services }, { params }) {
    return (await services.documents.getByExternalId(request, params.externalId)).map(publicDocument);
  },
});

export const deleteDocumentByExternalId = defineOperation({
  id: 'documents.deleteByExternalId',
  http: { method: 'DELETE', path: '/docs/by-external-id/:externalId', status: 204 },
  scope: 'write',
  counted: false,
  input: { params: externalIdParams },
  output: z.void(),
  async run({ request, services }, { params }) {
    const done = await services.documents.deleteByExternalId(request, params.externalId);
    return done.isOk() ? ok(undefined) : err(done.error);
  },
});

export const DOCUMENT_OPERATIONS = [listDocuments, createDocument, bulkDocuments, getDocument, updateDocument, reindexDocument, deleteDocument, putDocumentByExternalId, getDocumentByExternalId, deleteDocumentByExternalId];

