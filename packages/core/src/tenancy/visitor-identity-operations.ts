import { z } from 'zod';
import { visitorIdentityInputSchema } from './visitor-identity.js';
import { defineOperation } from '../operations/types.js';

/*
 * A workspace's visitor-identity key (`/workspaces/{id}/visitor-identity`): how the tenant's
 * backend signs the visitor tokens the widget and the help center accept. Admin only; reads show
 * the key masked.
 */

const idParams = z.looseObject({ id: z.string() });
const viewSchema = z.looseObject({
  algorithm: z.enum(['HS256', 'EdDSA']),
  keyHint: z.string().describe('The key\'s last four characters; the key itself is never shown again.'),
  issuer: z.string().nullable(),
  audience: z.string().describe('The `aud` tokens must carry.'),
  updatedAt: z.string(),
});

export const getVisitorIdentity = defineOperation({
  id: 'workspaces.visitorIdentity.get',
  http: { method: 'GET', path: '/workspaces/:id/visitor-identity' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: viewSchema,
  run: ({ request, services }, { params }) => services.visitorIdentity.get(request, params.id),
});

export const putVisitorIdentity = defineOperation({
  id: 'workspaces.visitorIdentity.put',
  http: { method: 'PUT', path: '/workspaces/:id/visitor-identity' },
  scope: 'admin',
  counted: false,
  input: { params: idParams, body: visitorIdentityInputSchema },
  output: viewSchema,
  run: ({ request, services }, { params, body }) => services.visitorIdentity.put(request, params.id, body),
});

export const deleteVisitorIdentity = defineOperation({
  id: 'workspaces.visitorIdentity.delete',
  http: { method: 'DELETE', path: '/workspaces/:id/visitor-identity' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: z.looseObject({ deleted: z.literal(true) }),
  run: ({ request, services }, { params }) => services.visitorIdentity.delete(request, params.id),
});

export const VISITOR_IDENTITY_OPERATIONS = [getVisitorIdentity, putVisitorIdentity, deleteVisitorIdentity];
