import { z } from 'zod';
import { ssoConfigInputSchema } from './sso.js';
import { SSO_ROLES } from './ports/sso.js';
import { defineOperation } from '../operations/types.js';

/*
 * The tenant's single sign-on provider (`/tenant/sso`) for the admin app: tenant-wide admins
 * only; reads show the client secret's last four characters.
 */

const viewSchema = z.looseObject({
  issuer: z.string(),
  clientId: z.string(),
  clientSecretHint: z.string().describe("The client secret's last four characters; the secret itself is never shown again."),
  allowedDomains: z.array(z.string()),
  roleClaim: z.string().nullable(),
  roleMap: z.record(z.string(), z.enum(SSO_ROLES)),
  defaultRole: z.enum(SSO_ROLES).nullable(),
  passwordLogin: z.boolean(),
  redirectPath: z.string().describe("The callback path to register at the provider, on this server's origin."),
  updatedAt: z.string(),
});

export const getSso = defineOperation({
  id: 'tenant.sso.get',
  http: { method: 'GET', path: '/tenant/sso' },
  scope: 'admin',
  counted: false,
  input: {},
  output: viewSchema,
  run: ({ request, services }) => services.sso.get(request),
});

export const putSso = defineOperation({
  id: 'tenant.sso.put',
  http: { method: 'PUT', path: '/tenant/sso' },
  scope: 'admin',
  counted: false,
  input: { body: ssoConfigInputSchema },
  output: viewSchema,
  run: ({ request, services }, { body }) => services.sso.put(request, body),
});

export const deleteSso = defineOperation({
  id: 'tenant.sso.delete',
  http: { method: 'DELETE', path: '/tenant/sso' },
  scope: 'admin',
  counted: false,
  input: {},
  output: z.looseObject({ deleted: z.literal(true) }),
  run: ({ request, services }) => services.sso.delete(request),
});

export const SSO_OPERATIONS = [getSso, putSso, deleteSso];
