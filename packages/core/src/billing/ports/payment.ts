/**
 * Checkout sessions, subscriptions and meter events at a payment processor (e.g. Stripe).
 * Versioned: an adapter declares the port version it implements, so a mismatch fails at start.
 */
export const PAYMENT_PROCESSOR_SPEC_VERSION = 'v1' as const;

export type BillingInterval = 'month' | 'year';

/** One line of a checkout session. Metered prices carry no quantity (the processor refuses one). */
export interface CheckoutLine {
  price: string;
  quantity?: number;
}

export interface CheckoutSessionInput {
  /** Panya tenant id; returned by the processor's webhook so the subscription finds its tenant. */
  tenantId: string;
  plan: string;
  interval: BillingInterval;
  /** The tenant's existing customer at the processor, if any (a new one is created otherwise). */
  customerId: string | null;
  lines: CheckoutLine[];
  successUrl: string;
  cancelUrl: string;
}

export interface MeterEvent {
  /** The configured event name of the meter, e.g. `svc_resolutions`. */
  eventName: string;
  customerId: string;
  /** The period total, a whole number. */
  value: number;
  timestamp: Date;
  /** The processor de-duplicates on this: sending the same identifier twice bills once. */
  identifier: string;
}

/** Stripe's subscription statuses; the usage reporter bills only `active`. */
export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';

/** A verified processor webhook, translated to what billing needs. */
export type BillingWebhookEvent =
  | {
      id: string;
      kind: 'subscription';
      /** From the checkout metadata; null when the subscription was made outside Panya's checkout. */
      tenantId: string | null;
      customerId: string;
      subscriptionId: string;
      status: SubscriptionStatus;
      /** The recurring price ids on the subscription (the plan is read from the base price). */
      priceIds: string[];
      interval: BillingInterval | null;
      /** Unix seconds; the end of the current term (annual rates stay locked until then). */
      currentPeriodEnd: number | null;
      /** Unix seconds the processor created the event at: events apply in this order per subscription. */
      createdAt: number;
    }
  | { id: string; kind: 'ignored'; type: string };

/** A subscription that still bills (not canceled or expired). */
export interface LiveSubscription {
  id: string;
  status: SubscriptionStatus;
  priceIds: string[];
}

export interface SubscriptionChangeInput {
  subscriptionId: string;
  tenantId: string;
  plan: string;
  interval: BillingInterval;
  /** The lines the subscription carries afterwards (the same rules as a checkout's). */
  lines: CheckoutLine[];
}

export interface PaymentProcessor {
  readonly specificationVersion: typeof PAYMENT_PROCESSOR_SPEC_VERSION;
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }>;
  /** The customer's newest subscription that still bills; null when there is none. */
  getLiveSubscription(customerId: string): Promise<LiveSubscription | null>;
  /**
   * Moves a live subscription to other prices (a plan or interval change): the old items go, the
   * new ones come, and the processor prorates the base price for the rest of the term.
   */
  changeSubscription(input: SubscriptionChangeInput): Promise<LiveSubscription>;
  /** The status of the customer's newest subscription; null when there is none. */
  getSubscriptionStatus(customerId: string): Promise<SubscriptionStatus | null>;
  sendMeterEvent(event: MeterEvent): Promise<void>;
  /** Verifies the signature over the raw body and translates the event; throws on a bad signature. */
  parseWebhook(rawBody: string | Uint8Array, signatureHeader: string): Promise<BillingWebhookEvent>;
}
