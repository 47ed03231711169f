import { z } from 'zod';
import { updateTenantSettingsSchema } from './tenant-settings.js';
import { defineOperation } from '../operations/types.js';

/*
 * Tenant-wide settings of browser access (allowed origins) and content sync (the connector
 * webhook's signing secret), for a tenant-wide `admin` key or an owner/admin session.
 */

const settingsSchema = z.looseObject({
  allowedOrigins: z.array(z.string()).describe('Origins whose pages may call the API (CORS); publishable keys work only from these.'),
  connectorWebhook: z.looseObject({ secretSet: z.boolean(), secretCreatedAt: z.string().nullable() }),
});

export const getTenantSettings = defineOperation({
  id: 'tenant.settings.get',
  http: { method: 'GET', path: '/tenant/settings' },
  scope: 'admin',
  counted: false,
  input: {},
  output: settingsSchema,
  async run({ request, services }) {
    return services.settings.get(request);
  },
});

export const updateTenantSettings = defineOperation({
  id: 'tenant.settings.update',
  http: { method: 'PATCH', path: '/tenant/settings' },
  scope: 'admin',
  counted: false,
  input: { body: updateTenantSettingsSchema },
  output: settingsSchema,
  async run({ request, services }, { body }) {
    return services.settings.update(request, body);
  },
});

export const rotateConnectorSecret = defineOperation({
  id: 'tenant.connectorSecret.rotate',
  http: { method: 'POST', path: '/tenant/connectors/secret', status: 201 },
  scope: 'admin',
  counted: false,
  input: {},
  output: z.looseObject({ secret: z.string().describe('Shown once: sign webhook deliveries with it.'), createdAt: z.string() }),
  async run({ request, services }) {
    return services.settings.rotateConnectorSecret(request);
  },
});

export const TENANT_SETTINGS_OPERATIONS = [getTenantSettings, updateTenantSettings, rotateConnectorSecret];
