import { z } from 'zod';
import { HOSTNAME_FAILURE_CAUSES } from './ports/edge.js';
import { HOSTNAME_STATUSES } from './ports/record.js';
import { createHostnameSchema } from './hostnames.js';
import { defineOperation } from '../operations/types.js';

/*
 * The tenant's help-center hostnames (`/tenant/custom-hostnames`), for a tenant-wide `admin` key
 * or an owner/admin session. POST registers (Pending, with DNS instructions); POST on one re-reads
 * its status from the edge provider; DELETE removes it (at the edge too).
 */

const idParams = z.looseObject({ id: z.string() });
const localized = z.object({ en: z.string(), th: z.string() });

export const hostnameSchema = z.looseObject({
  id: z.string(),
  hostname: z.string().describe('Lower-case ASCII (punycode) form.'),
  status: z.enum(HOSTNAME_STATUSES),
  statusLabel: z.string().describe('Pending, Verifying DNS, Active, Failed or Inactive.'),
  edgeHostnameId: z.string().nullable().describe('Null while registration at the edge has never succeeded.'),
  verificationError: z.enum(HOSTNAME_FAILURE_CAUSES).nullable(),
  verificationMessage: localized.nullable().describe('The inline message for the verification error.'),
  dns: z.object({
    cname: z.object({ name: z.string(), target: z.string() }),
    txt: z.object({ name: z.string(), value: z.string() }),
    note: z.string(),
  }),
  stale: z.boolean().describe('Verifying DNS for more than 24 hours.'),
  lastCheckedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listHostnames = defineOperation({
  id: 'hostnames.list',
  http: { method: 'GET', path: '/tenant/custom-hostnames' },
  scope: 'admin',
  counted: false,
  input: {},
  output: z.looseObject({ data: z.array(hostnameSchema), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
  async run({ request, services }) {
    // A tenant holds a handful of hostnames: one page, in the shared list envelope.
    return (await services.hostnames.list(request)).map((data) => ({ data, hasMore: false, nextCursor: null }));
  },
});

export const createHostname = defineOperation({
  id: 'hostnames.create',
  http: { method: 'POST', path: '/tenant/custom-hostnames', status: 201, location: (h) => `/tenant/custom-hostnames/${h.id}` },
  scope: 'admin',
  counted: false,
  input: { body: createHostnameSchema },
  output: hostnameSchema,
  async run({ request, services }, { body }) {
    return services.hostnames.create(request, body);
  },
});

export const checkHostname = defineOperation({
  id: 'hostnames.check',
  http: { method: 'POST', path: '/tenant/custom-hostnames/:id' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: hostnameSchema,
  async run({ request, services }, { params }) {
    return services.hostnames.check(request, params.id);
  },
});

export const deleteHostname = defineOperation({
  id: 'hostnames.delete',
  http: { method: 'DELETE', path: '/tenant/custom-hostnames/:id' },
  scope: 'admin',
  counted: false,
  input: { params: idParams },
  output: hostnameSchema,
  async run({ request, services }, { params }) {
    return services.hostnames.remove(request, params.id);
  },
});

export const HOSTNAME_OPERATIONS = [listHostnames, createHostname, checkHostname, deleteHostname];
