export * from './fake-cloudflare.js';
