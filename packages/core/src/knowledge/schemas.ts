import { z } from 'zod';
import { PUBLIC_SURFACES } from '../ports/store.js';
import { nestedDeeperThan } from '../schemas/validate.js';
import { AUDIENCE_INTERNAL, MAX_AUDIENCES, SEGMENT_PATTERN } from '../audiences/rules.js';

/** Markdown bodies above this are refused (the HTTP body limit is 1 MB; uploads convert below 10 MB). */
export const MAX_CONTENT_CHARS = 2_000_000;
export const MAX_BULK_ITEMS = 1_000;

const title = z.string().trim().min(1).max(300);
const contentMd = z.string().max(MAX_CONTENT_CHARS);
const url = z.url({ protocol: /^https?$/ }).max(2000);
const publicSurfaces = z.array(z.enum(PUBLIC_SURFACES)).transform((s) => [...new Set(s)]);
/** Who may read the document: `public`, `customers`, segment names, or `internal` alone. */
export const audiencesSchema = z
  .array(z.string().regex(SEGMENT_PATTERN, 'an audience is public, customers, internal or a segment name (a-z, 0-9, -)'))
  .max(MAX_AUDIENCES)
  .transform((a) => [...new Set(a)])
  .refine((a) => !a.includes(AUDIENCE_INTERNAL) || a.length === 1, '"internal" cannot be combined with other audiences')
  .describe('Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone.');
/** An external id: the caller's own key for a document (a relative path, a CMS id), unique per workspace. */
export const MAX_EXTERNAL_ID_CHARS = 512;
/** Serialized size of a document's `metadata`. */
export const MAX_METADATA_BYTES = 16_384;
/** Nesting of a document's `metadata` (objects and arrays). */
export const MAX_METADATA_DEPTH = 16;
export const externalIdSchema = z
  .string()
  .min(1)
  .max(MAX_EXTERNAL_ID_CHARS)
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');
export const metadataSchema = z
  .record(z.string(), z.json())
  .refine((v) => !nestedDeeperThan(v, MAX_METADATA_DEPTH), `at most ${MAX_METADATA_DEPTH} levels deep`)
  .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_METADATA_BYTES, `at most ${MAX_METADATA_BYTES} bytes as JSON`);
export const documentIdSchema = z.string().regex(/^doc_[0-9A-Za-z]{22}$/, 'not a document id');

export const createDocumentSchema = z.strictObject({
  title,
  contentMd,
  url: url.nullable().default(null),
  publicSurfaces: publicSurfaces.default([]),
  audiences: audiencesSchema.optional(),
  externalId: externalIdSchema.nullable().default(null),
  metadata: metadataSchema.default({}),
});
export type CreateDocumentInput = z.input<typeof createDocumentSchema>;

export const updateDocumentSchema = z
  .strictObject({
    title: title.optional(),
    contentMd: contentMd.optional(),
    url: url.nullable().optional(),
    publicSurfaces: publicSurfaces.optional(),
    audiences: audiencesSchema.optional(),
    externalId: externalIdSchema.nullable().optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'at least one field to change is required');
export type UpdateDocumentInput = z.input<typeof updateDocumentSchema>;

export const bulkDocumentsSchema = z
  .strictObject({
    create: z.array(createDocumentSchema).optional(),
    update: z.array(z.strictObject({ id: documentIdSchema, title: title.optional(), contentMd: contentMd.optional(), url: url.nullable().optional(), publicSurfaces: publicSurfaces.optional(), audiences: audiencesSchema.optional(), externalId: externalIdSchema.nullable().optional(), metadata: metadataSchema.optional() })).optional(),
    delete: z.array(documentIdSchema).optional(),
  })
  .refine((v) => (v.create?.length ?? 0) + (v.update?.length ?? 0) + (v.delete?.length ?? 0) > 0, 'at least one operation is required')
  .refine((v) => (v.create?.length ?? 0) + (v.update?.length ?? 0) + (v.delete?.length ?? 0) <= MAX_BULK_ITEMS, `at most ${MAX_BULK_ITEMS} operations per request`);
export type BulkDocumentsInput = z.input<typeof bulkDocumentsSchema>;

/** `PUT /docs/by-external-id/{externalId}`: the whole document; what is left out takes its default. */
export const putDocumentSchema = z.strictObject({
  title,
  contentMd,
  url: url.nullable().default(null),
  publicSurfaces: publicSurfaces.default([]),
  audiences: audiencesSchema.optional(),
  metadata: metadataSchema.default({}),
});
export type PutDocumentInput = z.input<typeof putDocumentSchema>;

export const listDocumentsSchema = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListDocumentsInput = z.input<typeof listDocumentsSchema>;
