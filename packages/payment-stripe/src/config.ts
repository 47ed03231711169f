/**
 * Stripe settings from the environment, checked at start: a mistake stops the start with a
 * message naming the variable.
 */
import { hasMarker, METERS, PAID_TIERS, type MeterEventNames, type MeterKey, type PriceCatalog, type TierPrices } from '@panya/core';

export interface StripeConfig {
  secretKey: string;
  /** Another API host (a local fake, stripe-mock); unset: api.stripe.com. */
  apiUrl: URL | null;
  webhookSecret: string;
  catalog: PriceCatalog;
  meterEventNames: MeterEventNames;
}

const STRIPE_CONFIG = Symbol.for('panya.error.stripe-config');

export class StripeConfigError extends Error {
  readonly [STRIPE_CONFIG] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, STRIPE_CONFIG);
  }
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'StripeConfigError';
  }
}

export function isStripeConfigError(error: unknown): error is StripeConfigError {
  return hasMarker(error, STRIPE_CONFIG);
}

const METER_VARIABLES: Record<MeterKey, string> = {
  svc_resolutions: 'PANYA_METER_RESOLUTIONS',
  svc_api_queries: 'PANYA_METER_API_QUERIES',
  svc_seat_addon_team: 'PANYA_METER_SEATS',
  svc_guided_flow: 'PANYA_METER_GUIDED_FLOWS',
};

const PRICE_SUFFIXES: Record<keyof TierPrices, string> = { base: 'BASE', baseAnnual: 'BASE_ANNUAL', resolutions: 'RESOLUTIONS', apiQueries: 'API_QUERIES' };

/** Every configuration variable this package reads, for documentation and typo checks. */
export const STRIPE_VARIABLES: readonly string[] = [
  'PANYA_STRIPE_SECRET_KEY',
  'PANYA_STRIPE_API_URL',
  'PANYA_STRIPE_WEBHOOK_SECRET',
  ...PAID_TIERS.flatMap((tier) => Object.values(PRICE_SUFFIXES).map((suffix) => `PANYA_PRICE_${tier.toUpperCase()}_${suffix}`)),
  'PANYA_PRICE_TEAM_SEATS',
  ...Object.values(METER_VARIABLES),
];

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function priceId(env: Env, name: string): string | undefined {
  const value = read(env, name);
  if (value !== undefined && !/^price_[A-Za-z0-9_]+$/.test(value)) throw new StripeConfigError(name, `expected a Stripe price id (price_…), got "${value}"`);
  return value;
}

/**
 * Reads the Stripe settings. Returns null when billing is not configured at all (no
 * `PANYA_STRIPE_SECRET_KEY` and no other billing variable); throws `StripeConfigError` otherwise
 * for the first mistake.
 */
export function stripeConfigFromEnv(env: Env = process.env): StripeConfig | null {
  const billingVariables = Object.keys(env).filter((name) => /^PANYA_(STRIPE|PRICE|METER)_/.test(name) && read(env, name) !== undefined);
  const unknown = billingVariables.find((name) => !STRIPE_VARIABLES.includes(name));
  if (unknown) throw new StripeConfigError(unknown, `not a known setting (known: ${STRIPE_VARIABLES.join(', ')})`);

  const secretKey = read(env, 'PANYA_STRIPE_SECRET_KEY');
  if (!secretKey) {
    if (billingVariables.length === 0) return null;
    throw new StripeConfigError('PANYA_STRIPE_SECRET_KEY', `required when ${billingVariables[0]} is set`);
  }
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) throw new StripeConfigError('PANYA_STRIPE_SECRET_KEY', 'expected a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…)');

  const webhookSecret = read(env, 'PANYA_STRIPE_WEBHOOK_SECRET');
  if (!webhookSecret) throw new StripeConfigError('PANYA_STRIPE_WEBHOOK_SECRET', 'required with PANYA_STRIPE_SECRET_KEY (subscription changes arrive by webhook)');
  if (!webhookSecret.startsWith('whsec_')) throw new StripeConfigError('PANYA_STRIPE_WEBHOOK_SECRET', 'expected a webhook signing secret (whsec_…)');

  let apiUrl: URL | null = null;
  const rawUrl = read(env, 'PANYA_STRIPE_API_URL');
  if (rawUrl) {
    try {
      apiUrl = new URL(rawUrl);
    } catch {
      throw new StripeConfigError('PANYA_STRIPE_API_URL', `not a URL: "${rawUrl}"`);
    }
    if (apiUrl.protocol !== 'http:' && apiUrl.protocol !== 'https:') throw new StripeConfigError('PANYA_STRIPE_API_URL', 'must be http:// or https://');
    if (apiUrl.pathname !== '/' || apiUrl.search) throw new StripeConfigError('PANYA_STRIPE_API_URL', 'give the host only (the SDK adds /v1/…)');
  }

  const catalog: PriceCatalog = { tiers: {} };
  for (const tier of PAID_TIERS) {
    const prices: TierPrices = {};
    for (const [field, suffix] of Object.entries(PRICE_SUFFIXES) as [keyof TierPrices, string][]) {
      const value = priceId(env, `PANYA_PRICE_${tier.toUpperCase()}_${suffix}`);
      if (value) prices[field] = value;
    }
    if (Object.keys(prices).length > 0) catalog.tiers[tier] = prices;
  }
  const teamSeats = priceId(env, 'PANYA_PRICE_TEAM_SEATS');
  if (teamSeats) catalog.teamSeats = teamSeats;

  const meterEventNames: MeterEventNames = {};
  for (const meter of METERS) {
    const name = METER_VARIABLES[meter];
    const value = read(env, name);
    if (value === undefined) continue;
    if (value.length > 100 || !/^[A-Za-z0-9_.:-]+$/.test(value)) throw new StripeConfigError(name, `not a meter event name: "${value}" (letters, digits, _ . : -; at most 100)`);
    meterEventNames[meter] = value;
  }
  return { secretKey, apiUrl, webhookSecret, catalog, meterEventNames };
}
