export * from './catalog.js';
export * from './checkout.js';
export * from './overage.js';
export * from './reporter.js';
export * from './seats.js';
export { runUsageReporter, GUIDED_FLOW_METER } from './usage-reporter.js';
export * from './subscription.js';
