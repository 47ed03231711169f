import { z } from 'zod';
import { checkoutSchema, seatAddonSchema, usageQuerySchema } from './billing.js';
import { disputeSchema, resolutionListSchema } from './resolution-audit.js';
import { defineOperation } from '../operations/types.js';

/* Tenant billing (`/billing`), for a tenant-wide `admin` key or an owner/admin session. */

export const createCheckout = defineOperation({
  id: 'billing.checkout',
  http: { method: 'POST', path: '/billing' },
  scope: 'admin',
  counted: false,
  input: { body: checkoutSchema },
  output: z.union([z.looseObject({ url: z.string(), sessionId: z.string() }), z.looseObject({ changed: z.literal(true), subscriptionId: z.string(), plan: z.string(), interval: z.string() })]),
  run: ({ request, services }, { body }) => services.billing.checkout(request, body),
});

export const setSeatAddon = defineOperation({
  id: 'billing.seat_addon',
  http: { method: 'POST', path: '/billing/seat-addon' },
  scope: 'admin',
  counted: false,
  input: { body: seatAddonSchema },
  output: z.looseObject({ seats: z.number().int(), addonSeats: z.number().int(), monthlySatang: z.number().int() }),
  run: async ({ request, services }, { body }) => (await services.billing.setSeats(request, body.seats)).map((change) => ({ ...change })),
});

export const getUsage = defineOperation({
  id: 'billing.usage',
  http: { method: 'GET', path: '/billing/usage' },
  scope: 'admin',
  counted: false,
  input: { query: usageQuerySchema },
  // Without a payment processor (billingConfigured false): usage only, projectedSatang and charges null.
  output: z.looseObject({ period: z.string(), billingConfigured: z.boolean(), resolutions: z.number().int(), apiQueries: z.number().int(), projectedSatang: z.number().int().nullable() }),
  run: ({ request, services }, { query }) => services.billing.usage(request, query.period),
});

export const listResolutions = defineOperation({
  id: 'billing.resolutions',
  http: { method: 'GET', path: '/billing/resolutions' },
  scope: 'admin',
  counted: false,
  input: { query: resolutionListSchema },
  output: z.looseObject({ period: z.string(), data: z.array(z.looseObject({ id: z.string(), state: z.string() })), nextCursor: z.string().nullable() }),
  run: async ({ request, services }, { query }) => (await services.billing.resolutions.list(request, query)).map((page) => ({ ...page, data: page.data.map((line) => ({ ...line })) })),
});

export const disputeResolution = defineOperation({
  id: 'billing.resolutions.dispute',
  http: { method: 'POST', path: '/billing/resolutions/:id/dispute' },
  scope: 'admin',
  counted: false,
  input: { params: z.looseObject({ id: z.string().max(100) }), body: disputeSchema },
  output: z.looseObject({ id: z.string(), state: z.literal('disputed') }),
  run: async ({ request, services }, { params, body }) => (await services.billing.resolutions.dispute(request, params.id, body)).map((line) => ({ ...line, state: 'disputed' as const })),
});

export const BILLING_OPERATIONS = [createCheckout, setSeatAddon, getUsage, listResolutions, disputeResolution] as const;
