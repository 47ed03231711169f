import type { Engine } from '@panya/core';
import type { RequestHandler } from 'express';
import { sendProblem } from '../problem.js';

/** Every address of the connector webhook; `/api/…` names the tenant in the `Panya-Tenant` header. */
export const CONNECTOR_WEBHOOK_PATHS = ['/api/connectors/webhook', '/c/:tenantSlug/api/connectors/webhook', '/c/:tenantSlug/_w/:workspaceSlug/api/connectors/webhook'];

/**
 * `POST /api/connectors/webhook`: signed content-sync events. No API key: the `Panya-Signature`
 * header, an HMAC of the raw body with the tenant's connector secret, is the credential. A
 * replayed event id answers 200 with `duplicate: true` and changes nothing.
 */
export function connectorWebhook(engine: Engine): RequestHandler {
  return async (req, res) => {
    const params = req.params as { tenantSlug?: string; workspaceSlug?: string };
    const outcome = await engine.connectors.receive({
      tenantSlug: params.tenantSlug ?? req.get('panya-tenant'),
      workspaceSlug: params.workspaceSlug,
      signature: req.get('panya-signature'),
      rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    if (outcome.isErr()) return sendProblem(req, res, outcome.error);
    res.json({ received: true, ...outcome.value });
  };
}
