/**
 * Writes `src/schema.ts`, the client's types, from the API's OpenAPI document (openapi-typescript).
 * Run after a route changes: `pnpm --filter @panya/client generate`; a test fails while it is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiDocument } from '@panya/adapter-express';
import { schemaSource } from '../test/schema-source.js';

const target = fileURLToPath(new URL('../src/schema.ts', import.meta.url));
writeFileSync(target, await schemaSource(apiDocument()));
console.log(`wrote ${target}`);
