/** Checkout sessions, subscriptions and meter events at a payment processor (e.g. Stripe). */
export interface CheckoutLine {
  price: string;
  quantity?: number;
}

export interface MeterEvent {
  eventName: string;
  customerId: string;
  value: number;
  timestamp: Date;
  /** The processor de-duplicates on this: sending the same event twice bills once. */
  idempotencyKey: string;
}

export interface PaymentProcessor {
  createCheckoutSession(input: { customerId?: string; lines: CheckoutLine[]; successUrl: string; cancelUrl: string }): Promise<{ id: string; url: string }>;
  getSubscriptionStatus(customerId: string): Promise<string | null>;
  sendMeterEvent(event: MeterEvent): Promise<void>;
}
