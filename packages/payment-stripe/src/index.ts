export { stripeConfigFromEnv, StripeConfigError, isStripeConfigError, STRIPE_VARIABLES, type StripeConfig } from './config.js';
export { createStripeClient, createStripePaymentProcessor } from './processor.js';
