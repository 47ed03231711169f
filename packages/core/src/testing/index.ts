export { describeStoreConformance, type StoreFactory, type StoreHandle } from './conformance.js';
export { seedWorkspaceData, type SchemaProbe } from './workspaces-conformance.js';
export { engineInternals, makeDocument, makeTenant, makeWorkspace, manyChunkManual, oneChunkArticle, requireCapability, seedOneAndManyChunkDocuments, seedTwoTenants } from './fixtures.js';
export { createFakePaymentProcessor, FAKE_WEBHOOK_SIGNATURE, type FakePaymentProcessor } from './payment.js';
export {
  describeEmbedderConformance,
  describeGeneratorConformance,
  type EmbedderConformanceOptions,
  type GeneratorConformanceOptions,
} from './provider-conformance.js';
