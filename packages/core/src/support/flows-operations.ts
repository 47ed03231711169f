import { z } from 'zod';
import type { FlowRecord, FlowRunRecord } from './ports/flows.js';
import { createFlowSchema, draftSchema, startRunSchema, updateFlowSchema } from './flows.js';
import { defineOperation } from '../operations/types.js';

/*
 * Guided flows (`/flows`, `/flows/{id}/runs`, `/flow-runs/{id}/draft|complete`), for a `write` key
 * or an editor session. Completing a run bills one guided flow, once.
 */

const idParams = z.looseObject({ id: z.string() });

const flowSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  steps: z.array(z.looseObject({ title: z.string(), instructions: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const flowRunSchema = z.looseObject({
  id: z.string(),
  flowId: z.string(),
  workspaceId: z.string(),
  conversationId: z.string().nullable(),
  status: z.enum(['started', 'drafted', 'completed']),
  draft: z.string().nullable(),
  createdAt: z.string(),
  draftedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});

const publicFlow = ({ tenantId: _t, ...flow }: FlowRecord) => flow;
const publicRun = ({ tenantId: _t, ...run }: FlowRunRecord) => run;

export const listFlows = defineOperation({
  id: 'flows.list',
  http: { method: 'GET', path: '/flows' },
  scope: 'write',
  counted: false,
  input: {},
  output: z.looseObject({ data: z.array(flowSchema) }),
  run: async ({ request, services }) => (await services.flows.list(request)).map((flows) => ({ data: flows.map(publicFlow) })),
});

export const createFlow = defineOperation({
  id: 'flows.create',
  http: { method: 'POST', path: '/flows', status: 201, location: (flow) => `/flows/${flow.id}` },
  scope: 'write',
  counted: false,
  input: { body: createFlowSchema },
  output: flowSchema,
  run: async ({ request, services }, { body }) => (await services.flows.create(request, body)).map(publicFlow),
});

export const getFlow = defineOperation({
  id: 'flows.get',
  http: { method: 'GET', path: '/flows/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: flowSchema,
  run: async ({ request, services }, { params }) => (await services.flows.get(request, params.id)).map(publicFlow),
});

export const updateFlow = defineOperation({
  id: 'flows.update',
  http: { method: 'PATCH', path: '/flows/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: updateFlowSchema },
  output: flowSchema,
  run: async ({ request, services }, { params, body }) => (await services.flows.update(request, params.id, body)).map(publicFlow),
});

export const deleteFlow = defineOperation({
  id: 'flows.delete',
  http: { method: 'DELETE', path: '/flows/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.looseObject({ id: z.string(), deleted: z.literal(true) }),
  run: ({ request, services }, { params }) => services.flows.delete(request, params.id),
});

export const startFlowRun = defineOperation({
  id: 'flows.start_run',
  http: { method: 'POST', path: '/flows/:id/runs', status: 201, location: (run) => `/flow-runs/${run.id}` },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: startRunSchema },
  output: flowRunSchema,
  run: async ({ request, services }, { params, body }) => (await services.flows.startRun(request, params.id, body)).map(publicRun),
});

export const getFlowRun = defineOperation({
  id: 'flows.get_run',
  http: { method: 'GET', path: '/flow-runs/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: flowRunSchema,
  run: async ({ request, services }, { params }) => (await services.flows.getRun(request, params.id)).map(publicRun),
});

export const draftFlowRun = defineOperation({
  id: 'flows.draft_run',
  http: { method: 'POST', path: '/flow-runs/:id/draft' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: draftSchema },
  output: flowRunSchema,
  run: async ({ request, services }, { params, body }) => (await services.flows.draft(request, params.id, body)).map(publicRun),
});

export const completeFlowRun = defineOperation({
  id: 'flows.complete_run',
  http: { method: 'POST', path: '/flow-runs/:id/complete' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: flowRunSchema,
  run: async ({ request, services }, { params }) => (await services.flows.complete(request, params.id)).map(publicRun),
});

export const FLOW_OPERATIONS = [listFlows, createFlow, getFlow, updateFlow, deleteFlow, startFlowRun, getFlowRun, draftFlowRun, completeFlowRun] as const;
