import { PAYMENT_PROCESSOR_SPEC_VERSION, type BillingWebhookEvent, type CheckoutSessionInput, type MeterEvent, type PaymentProcessor, type SubscriptionChangeInput, type SubscriptionStatus } from '../billing/ports/payment.js';

/** The signature the fake accepts on webhooks. */
export const FAKE_WEBHOOK_SIGNATURE = 'fake-signature';

/**
 * An in-memory payment processor for tests of billing services: it keeps checkout sessions,
 * de-duplicates meter events by identifier (as processors do) and answers subscription status
 * from what the test sets. Webhooks are JSON `BillingWebhookEvent`s signed with
 * `FAKE_WEBHOOK_SIGNATURE`.
 */
export function createFakePaymentProcessor() {
  const sessions: (CheckoutSessionInput & { id: string; url: string })[] = [];
  const meterEvents: MeterEvent[] = [];
  const statuses = new Map<string, SubscriptionStatus>();
  const changes: SubscriptionChangeInput[] = [];
  let failNextMeterEvents = 0;
  const processor: PaymentProcessor & {
    sessions: typeof sessions;
    changes: typeof changes;
    meterEvents: typeof meterEvents;
    setSubscriptionStatus(customerId: string, status: SubscriptionStatus): void;
    /** The next `n` meter events fail after reaching the processor (a lost response). */
    failAfterAccepting(n: number): void;
  } = {
    specificationVersion: PAYMENT_PROCESSOR_SPEC_VERSION,
    sessions,
    changes,
    meterEvents,
    setSubscriptionStatus: (customerId, status) => void statuses.set(customerId, status),
    failAfterAccepting: (n) => void (failNextMeterEvents = n),
    async createCheckoutSession(input) {
      const id = `cs_test_${sessions.length + 1}`;
      const session = { ...input, id, url: `https://checkout.example/${id}` };
      sessions.push(session);
      return { id, url: session.url };
    },
    async getSubscriptionStatus(customerId) {
      return statuses.get(customerId) ?? null;
    },
    async getLiveSubscription(customerId) {
      const status = statuses.get(customerId);
      return status && !['canceled', 'incomplete_expired'].includes(status) ? { id: `sub_${customerId}`, status, priceIds: [] } : null;
    },
    async changeSubscription(input) {
      changes.push(input);
      return { id: input.subscriptionId, status: 'active', priceIds: input.lines.map((l) => l.price) };
    },
    async sendMeterEvent(event) {
      if (!meterEvents.some((e) => e.identifier === event.identifier)) meterEvents.push(event);
      if (failNextMeterEvents > 0) {
        failNextMeterEvents--;
        throw new Error('connection reset after the processor accepted the event');
      }
    },
    async parseWebhook(rawBody, signatureHeader) {
      if (signatureHeader !== FAKE_WEBHOOK_SIGNATURE) throw new Error('invalid webhook signature');
      const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
      return JSON.parse(text) as BillingWebhookEvent;
    },
  };
  return processor;
}

export type FakePaymentProcessor = ReturnType<typeof createFakePaymentProcessor>;
