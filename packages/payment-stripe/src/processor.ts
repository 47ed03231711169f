/**
 * The PaymentProcessor port on Stripe, through the official SDK. Checkout sessions create
 * subscriptions; meter events carry an identifier Stripe bills once; webhooks are verified with
 * the SDK's signature check and translated to what billing needs.
 */
import {
  PAYMENT_PROCESSOR_SPEC_VERSION,
  type BillingWebhookEvent,
  type PaymentProcessor,
  type SubscriptionStatus,
} from '@panya/core';
import Stripe from 'stripe';
import type { StripeConfig } from './config.js';

/** Statuses of a subscription that no longer bills: a plan change needs a new checkout. */
const ENDED = new Set(['canceled', 'incomplete_expired']);
const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);

/** Stripe refuses a second meter event with an identifier it already holds: that event was billed. */
function isDuplicateMeterEvent(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && /already exists with identifier/i.test(error.message);
}

/** Stripe's own tolerance (the SDK's default): a signature older than this is refused by the SDK. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The SDK refuses only signatures older than the tolerance; one dated further ahead (a captured
 * delivery re-signed for later replay, or a sender's clock far off) is refused here, so the window
 * holds both ways.
 */
function refuseFutureTimestamp(header: string, nowMs: number): void {
  const t = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1]);
  if (Number.isFinite(t) && t - nowMs / 1000 > WEBHOOK_TOLERANCE_SECONDS) {
    throw new Stripe.errors.StripeSignatureVerificationError(header, '', {
      message: `Timestamp outside the tolerance zone: the signature is dated more than ${WEBHOOK_TOLERANCE_SECONDS} s in the future`,
    });
  }
}

export function createStripeClient(config: Pick<StripeConfig, 'secretKey' | 'apiUrl'>, options: { maxNetworkRetries?: number; timeoutMs?: number } = {}): Stripe {
  const url = config.apiUrl;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    ...(url ? { host: url.hostname, port: url.port || (url.protocol === 'https:' ? 443 : 80), protocol: url.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
}

function subscriptionEvent(id: string, created: number, subscription: Stripe.Subscription): BillingWebhookEvent {
  const items = subscription.items.data;
  const interval: string | undefined = items[0]?.price.recurring?.interval;
  const ends = items.map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number');
  return {
    id,
    kind: 'subscription',
    tenantId: subscription.metadata?.tenantId ?? null,
    customerId: typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
    subscriptionId: subscription.id,
    status: subscription.status as SubscriptionStatus,
    priceIds: items.map((item) => item.price.id),
    interval: interval === 'year' || interval === 'month' ? interval : null,
    currentPeriodEnd: ends.length > 0 ? Math.max(...ends) : null,
    createdAt: created,
  };
}

export function createStripePaymentProcessor(config: StripeConfig, stripe: Stripe = createStripeClient(config)): PaymentProcessor {
  return {
    specificationVersion: PAYMENT_PROCESSOR_SPEC_VERSION,

    async createCheckoutSession(input) {
      const metadata = { tenantId: input.tenantId, plan: input.plan, interval: input.interval };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: input.lines.map((line) => (line.quantity === undefined ? { price: line.price } : { price: line.price, quantity: line.quantity })),
          ...(input.customerId ? { customer: input.customerId } : {}),
          client_reference_id: input.tenantId,
          metadata,
          // The subscription carries the tenant, so its webhooks find the tenant without a lookup.
          subscription_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { id: session.id, url: session.url };
    },

    async getLiveSubscription(customerId) {
      const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 10 });
      const live = list.data.find((s) => !ENDED.has(s.status));
      return live ? { id: live.id, status: live.status as SubscriptionStatus, priceIds: live.items.data.map((item) => item.price.id) } : null;
    },

    async changeSubscription(input) {
      const current = await stripe.subscriptions.retrieve(input.subscriptionId);
      const updated = await stripe.subscriptions.update(input.subscriptionId, {
        // Swap the price items: the old tier's go, the new tier's come (metered ones without a quantity).
        items: [
          ...current.items.data.map((item) => ({ id: item.id, deleted: true })),
          ...input.lines.map((line) => (line.quantity === undefined ? { price: line.price } : { price: line.price, quantity: line.quantity })),
        ],
        proration_behavior: 'create_prorations',
        metadata: { tenantId: input.tenantId, plan: input.plan, interval: input.interval },
      });
      return { id: updated.id, status: updated.status as SubscriptionStatus, priceIds: updated.items.data.map((item) => item.price.id) };
    },

    async getSubscriptionStatus(customerId) {
      const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 1 });
      return (list.data[0]?.status as SubscriptionStatus | undefined) ?? null;
    },

    async sendMeterEvent(event) {
      try {
        await stripe.billing.meterEvents.create(
          {
            event_name: event.eventName,
            identifier: event.identifier,
            timestamp: Math.floor(event.timestamp.getTime() / 1000),
            payload: { stripe_customer_id: event.customerId, value: String(event.value) },
          },
          // A retried request replays the first answer instead of creating a second event.
          { idempotencyKey: `meter:${event.identifier}` },
        );
      } catch (error) {
        if (!isDuplicateMeterEvent(error)) throw error;
      }
    },

    async parseWebhook(rawBody, signatureHeader) {
      const payload = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody);
      refuseFutureTimestamp(signatureHeader, Date.now());
      const event = await stripe.webhooks.constructEventAsync(payload, signatureHeader, config.webhookSecret);
      if (SUBSCRIPTION_EVENTS.has(event.type)) return subscriptionEvent(event.id, event.created, event.data.object as Stripe.Subscription);
      return { id: event.id, kind: 'ignored', type: event.type };
    },
  };
}
