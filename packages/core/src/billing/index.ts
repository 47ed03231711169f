export * from './catalog.js';
export * from './checkout.js';
export * from './overage.js';
export * from './reporter.js';
export * from './seats.js';
export { gatherPeriodBill, GUIDED_FLOW_METER } from './period-usage.js';
export * from './period.js';
export * from './subscription.js';
