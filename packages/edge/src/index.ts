export * from './cloudflare.js';
export * from './config.js';
export * from './dns.js';
export * from './none.js';
