export { describeStoreConformance, type StoreFactory, type StoreHandle } from './conformance.js';
export * from './fixtures.js';
