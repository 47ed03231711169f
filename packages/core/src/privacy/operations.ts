import { z } from 'zod';
import { auditQuerySchema } from '../audit/audit.js';
import { updatePrivacySchema } from '../privacy/settings.js';
import { listSchema } from '../schemas/responses.js';
import { defineOperation } from '../operations/types.js';

/*
 * The workspace's privacy settings (personal-data redaction, the operator's patterns, retention)
 * and the tenant's audit log, for an `admin` key or an owner/admin session.
 */

const privacySchema = z.looseObject({
  redactPii: z.boolean().describe('Replace e-mail addresses, phone numbers, card numbers, Thai ID numbers and the patterns below before a message is stored or text reaches a model provider.'),
  patterns: z.array(z.object({ name: z.string(), pattern: z.string().describe('RE2 syntax (no backreferences or lookarounds); matches become [NAME].') })),
  retentionDays: z.number().int().nullable().describe('Conversations idle this many days are purged by the retention job; null keeps them.'),
});

export const getPrivacy = defineOperation({
  id: 'privacy.get',
  http: { method: 'GET', path: '/privacy' },
  scope: 'admin',
  counted: false,
  input: {},
  output: privacySchema,
  async run({ request, services }) {
    return (await services.privacy.get(request)).map((p) => ({ ...p }));
  },
});

export const updatePrivacy = defineOperation({
  id: 'privacy.update',
  http: { method: 'PATCH', path: '/privacy' },
  scope: 'admin',
  counted: false,
  input: { body: updatePrivacySchema },
  output: privacySchema,
  async run({ request, services }, { body }) {
    return (await services.privacy.update(request, body)).map((p) => ({ ...p }));
  },
});

const auditEntrySchema = z.looseObject({
  id: z.string(),
  seq: z.number().int().nullable().describe('Position in the tenant chain; null for entries written before the chain existed.'),
  type: z.string(),
  workspaceId: z.string().nullable(),
  actor: z.string(),
  actorKind: z.enum(['user', 'key', 'operator', 'webhook', 'system']),
  subjectId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  prevHash: z.string().nullable(),
  hash: z.string().nullable().describe('SHA-256 of the entry; `panya audit verify` checks the chain.'),
});

export const listAudit = defineOperation({
  id: 'audit.list',
  http: { method: 'GET', path: '/audit' },
  scope: 'admin',
  counted: false,
  input: { query: auditQuerySchema },
  output: listSchema(auditEntrySchema),
  async run({ request, services }, { query }) {
    return services.audit.list(request, query);
  },
});

export const PRIVACY_OPERATIONS = [getPrivacy, updatePrivacy, listAudit] as const;
