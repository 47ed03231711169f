import { z } from 'zod';
import { err, ok } from 'neverthrow';
import { API_KEY_KINDS, API_KEY_SCOPES } from '../ports/store.js';
import { MEMBERSHIP_ROLES } from './ports/users.js';
import { createApiKeySchema } from './schemas.js';
import { defineOperation } from '../operations/types.js';

/*
 * Settings → API Keys of the admin app (spec, Authentication 2): list, create (the secret is
 * answered once), revoke. A tenant-wide `admin` key or owner/admin session; `GET /me` tells any
 * caller who it is, so the app shows each role only what it may do.
 */

const apiKeySchema = z.looseObject({
  id: z.string(),
  kind: z.enum(API_KEY_KINDS).describe('`secret` (svc_live_…, servers) or `publishable` (svc_pub_…, pages on allowed origins).'),
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, to tell keys apart; never enough to authenticate.'),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  workspaceId: z.string().nullable().describe('Null: every workspace of the tenant.'),
  workspaceSlug: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('When the key last authenticated a request, to the minute; null: never used.'),
});

export const listApiKeys = defineOperation({
  id: 'apiKeys.list',
  http: { method: 'GET', path: '/api-keys' },
  scope: 'admin',
  counted: false,
  input: {},
  output: z.looseObject({ data: z.array(apiKeySchema) }),
  async run({ request, services }) {
    return (await services.apiKeys.listFor(request)).map((data) => ({ data }));
  },
});

export const createApiKey = defineOperation({
  id: 'apiKeys.create',
  http: { method: 'POST', path: '/api-keys', status: 201, location: (key) => `/api-keys/${key.id}` },
  scope: 'admin',
  counted: false,
  input: { body: createApiKeySchema },
  output: apiKeySchema.extend({ key: z.string().describe('The full key: shown once, never stored or shown again.') }),
  async run({ request, services }, { body }) {
    return services.apiKeys.createFor(request, body);
  },
});

export const revokeApiKey = defineOperation({
  id: 'apiKeys.revoke',
  http: { method: 'DELETE', path: '/api-keys/:id', status: 204 },
  scope: 'admin',
  counted: false,
  input: { params: z.looseObject({ id: z.string() }) },
  output: z.void(),
  async run({ request, services }, { params }) {
    const done = await services.apiKeys.revokeFor(request, params.id);
    return done.isOk() ? ok(undefined) : err(done.error);
  },
});

/** Who is calling, in the addressed tenant and workspace: what the admin app shows and hides by. */
export const whoAmI = defineOperation({
  id: 'me',
  http: { method: 'GET', path: '/me' },
  scope: 'read',
  counted: false,
  input: {},
  output: z.looseObject({
    kind: z.enum(['api_key', 'user', 'system']),
    id: z.string().describe('The key id or user id.'),
    role: z.enum(MEMBERSHIP_ROLES).nullable().describe('A signed-in user\'s role; null for keys.'),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    tenantWide: z.boolean().describe('False: bound to one workspace.'),
    tenant: z.looseObject({ slug: z.string(), plan: z.string() }),
    workspace: z.looseObject({ id: z.string(), slug: z.string(), name: z.string(), brandAccent: z.string().nullable(), isDefault: z.boolean() }),
  }),
  async run({ request }) {
    const { principal, tenant, workspace } = request;
    return ok({
      kind: principal.kind,
      id: principal.id,
      role: principal.role ?? null,
      scopes: principal.scopes,
      tenantWide: principal.workspaceId === null,
      tenant: { slug: tenant.slug, plan: tenant.plan },
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, brandAccent: workspace.brandAccent, isDefault: workspace.isDefault },
    });
  },
});

export const API_KEY_OPERATIONS = [listApiKeys, createApiKey, revokeApiKey, whoAmI];
