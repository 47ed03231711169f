export { describeStoreConformance, type StoreFactory, type StoreHandle } from './conformance.js';
export { seedWorkspaceData, type SchemaProbe } from './workspaces-conformance.js';
export * from './fixtures.js';
export * from './payment.js';
export {
  describeEmbedderConformance,
  describeGeneratorConformance,
  type EmbedderConformanceOptions,
  type GeneratorConformanceOptions,
} from './provider-conformance.js';
