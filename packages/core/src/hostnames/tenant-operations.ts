import { z } from 'zod';
import { eraseTenantSchema } from './erasure.js';
import { defineOperation } from '../operations/types.js';

/*
 * `DELETE /tenant`: the owner erases the whole tenant (spec "Tenant erasure"). Only a signed-in
 * owner, tenant-wide; the body repeats the slug. Answers what was removed.
 */
export const eraseTenant = defineOperation({
  id: 'tenant.erase',
  http: { method: 'DELETE', path: '/tenant' },
  scope: 'admin',
  counted: false,
  input: { body: eraseTenantSchema },
  output: z.looseObject({
    slug: z.string(),
    tenantId: z.string(),
    hostnames: z.array(z.string()).describe('Active at erasure: they answer 410 Gone; their edge registrations stay until an operator removes them.'),
    erasedAt: z.string(),
    deleted: z.record(z.string(), z.number()).describe('Rows removed, by table.'),
  }),
  async run({ request, services }, { body }) {
    return services.erasure.eraseOwn(request, body);
  },
});

export const TENANT_OPERATIONS = [eraseTenant];
