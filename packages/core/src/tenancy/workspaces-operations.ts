import { z } from 'zod';
import { createWorkspaceSchema, updateWorkspaceSchema } from './workspace-schemas.js';
import { workspaceSchema, type WorkspaceJson } from '../schemas/responses.js';
import { workspaceSettings, type WorkspaceView } from './workspaces.js';
import { defineOperation } from '../operations/types.js';

/*
 * Workspace CRUD with restore (`/workspaces`), for a tenant-wide `admin` key or an owner/admin
 * session. DELETE soft-deletes (30-day recovery); the cleanup job hard-deletes.
 */

const idParams = z.looseObject({ id: z.string() });

/** The public shape of a workspace: no internal tenant id. */
export function publicWorkspace({ tenantId: _tenant, ...ws }: WorkspaceView): WorkspaceJson {
  return ws;
}

export const listWorkspaces = defineOperation({
  id: 'workspaces.list',
  http: { method: 'GET', path: '/workspaces' },
  scope: 'admin',
  counted: false,
  input: {},
  output: z.looseObject({
    data: z.array(workspaceSchema),
    crossWorkspaceVisitorLinking: z.looseObject({ enabled: z.boolean(), implemented: z.boolean() }).describe('Enterprise flag; stored, linking not implemented.'),
  }),
  async run({ request, services }) {
    return (await services.workspaces.list(request)).map((list) => ({ data: list.map(publicWorkspace), ...workspaceSettings(request.tenant) }));
  },
});

export const createWorkspace = defineOperation({
  id: 'workspaces.create',
  http: { method: 'POST', path: '/workspaces', status: 201, location: (ws) => `/workspaces/${ws.id}` },
  scope: 'admin',
  counted: false,
  input: { body: createWorkspaceSchema },
  output: workspaceSchema,
  async run({ request, services }, { body }) {
    return (await services.workspaces.create(request, body)).map(publicWorkspace);
  },
});

export const getWorkspace = defineOperation({
  id: 'workspaces.get',
  http: { method: 'GET', path: '/workspaces/:id' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: workspaceSchema,
  async run({ request, services }, { params }) {
    return (await services.workspaces.get(request, params.id)).map(publicWorkspace);
  },
});

export const updateWorkspace = defineOperation({
  id: 'workspaces.update',
  http: { method: 'PATCH', path: '/workspaces/:id' },
  scope: 'admin',
  counted: false,
  input: { params: idParams, body: updateWorkspaceSchema },
  output: workspaceSchema,
  async run({ request, services }, { params, body }) {
    return (await services.workspaces.update(request, params.id, body)).map(publicWorkspace);
  },
});

export const deleteWorkspace = defineOperation({
  id: 'workspaces.delete',
  http: { method: 'DELETE', path: '/workspaces/:id' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: workspaceSchema,
  async run({ request, services }, { params }) {
    return (await services.workspaces.delete(request, params.id)).map(publicWorkspace);
  },
});

export const restoreWorkspace = defineOperation({
  id: 'workspaces.restore',
  http: { method: 'POST', path: '/workspaces/:id/restore' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: workspaceSchema,
  async run({ request, services }, { params }) {
    return (await services.workspaces.restore(request, params.id)).map(publicWorkspace);
  },
});

export const WORKSPACE_OPERATIONS = [listWorkspaces, createWorkspace, getWorkspace, updateWorkspace, deleteWorkspace, restoreWorkspace];
