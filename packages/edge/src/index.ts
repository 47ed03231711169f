export { CLOUDFLARE_API_URL, CloudflareEdge, type CloudflareEdgeOptions, observe, PURGE_BATCH } from './cloudflare.js';
export { createEdgeProvider, EDGE_PROVIDERS, type EdgeConfig, EdgeConfigError, type EdgeProviderName, isEdgeConfigError, parseEdgeConfig } from './config.js';
export { DnsEdge, type DnsEdgeOptions } from './dns.js';
export { NoEdge } from './none.js';
