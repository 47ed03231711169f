import { createHmac, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import { externalIdSchema, putDocumentSchema } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { randomBase62 } from '../system.js';
import type { AccessService } from '../tenancy/access.js';
import type { ServiceDeps } from '../context.js';
import type { AppliedSyncEvent, DocumentService, SyncEvent } from './documents.js';

/** A signed event older or newer than this (seconds) is refused: a captured request cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const CONNECTOR_SECRET_PREFIX = 'pcs_';

export const syncEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ id: z.string().min(1).max(200), type: z.literal('document.upsert'), externalId: externalIdSchema, document: putDocumentSchema }),
  z.strictObject({ id: z.string().min(1).max(200), type: z.literal('document.delete'), externalId: externalIdSchema }),
]);

/** The `Panya-Signature` value for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signWebhook(secret: string, rawBody: Buffer | string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

/**
 * Checks a `Panya-Signature` header against the raw body: the timestamp within the tolerance of
 * `now`, and one `v1` equal (constant time) to the HMAC with the tenant's secret.
 */
export function verifyWebhookSignature(header: string | undefined, rawBody: Buffer, secret: string, now: Date): Result<void, PanyaError> {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v && /^[0-9a-f]{64}$/i.test(v)).map(([, v]) => Buffer.from(v!, 'hex'));
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return err(errors.unauthorized('Send the Panya-Signature header: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">.'));
  if (Math.abs(now.getTime() / 1000 - Number(t)) > WEBHOOK_TOLERANCE_SECONDS) {
    return err(errors.unauthorized(`The signature timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} s from the server's clock; sign each delivery when sending it.`));
  }
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  if (!signatures.some((s) => timingSafeEqual(s, expected))) return err(errors.unauthorized('The webhook signature does not match the body.'));
  return ok(undefined);
}

export interface WebhookDelivery {
  tenantSlug?: string | undefined;
  workspaceSlug?: string | undefined;
  signature?: string | undefined;
  rawBody: Buffer;
}

/**
 * Content-sync connectors: the tenant's webhook signing secret and the signed events it sends to
 * `POST /api/connectors/webhook`. Nothing is read from the body before the signature holds.
 */
export function createConnectorService(deps: ServiceDeps & { access: AccessService; documents: DocumentService }) {
  const { store, clock } = deps;
  return {
    /** A new signing secret (the previous one stops working at once). Shown once here. */
    async rotateSecret(tenantId: string): Promise<{ secret: string; createdAt: string }> {
      const secret = CONNECTOR_SECRET_PREFIX + randomBase62(40);
      const createdAt = clock.now().toISOString();
      await store.connectors.setSecret(tenantId, secret, createdAt);
      return { secret, createdAt };
    },

    async receive(delivery: WebhookDelivery): Promise<Result<AppliedSyncEvent & { eventId: string }, PanyaError>> {
      if (!delivery.tenantSlug) return err(errors.invalid('Name the tenant: send the Panya-Tenant header, or post to /c/{tenant}/api/connectors/webhook.'));
      const tenant = await store.tenants.getBySlug(delivery.tenantSlug);
      const secret = tenant ? await store.connectors.getSecret(tenant.id) : null;
      // An unknown tenant and one without a secret look alike: no hint of which tenants exist.
      if (!secret) return err(errors.unauthorized('No connector secret is set for this tenant.'));
      const verified = verifyWebhookSignature(delivery.signature, delivery.rawBody, secret.secret, clock.now());
      if (verified.isErr()) return err(verified.error);
      let body: unknown;
      try {
        body = JSON.parse(delivery.rawBody.toString('utf8'));
      } catch {
        return err(errors.invalid('Request body is not valid JSON.'));
      }
      const event = parseInput(syncEventSchema, body);
      if (event.isErr()) return err(event.error);
      const ctx = await deps.access.system(delivery.tenantSlug, delivery.workspaceSlug);
      if (ctx.isErr()) return err(ctx.error);
      const applied = await deps.documents.applySyncEvent(ctx.value, event.value as SyncEvent);
      return applied.map((a) => ({ ...a, eventId: event.value.id }));
    },
  };
}

export type ConnectorService = ReturnType<typeof createConnectorService>;
