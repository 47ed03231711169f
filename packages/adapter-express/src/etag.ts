import { createHash } from 'node:crypto';

/**
 * A strong validator of a body fixed at start-up. The app computes no ETag itself (see app.ts):
 * routes whose answers are worth revalidating set one, and `res.send` then answers a matching
 * If-None-Match with 304.
 */
export const etagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
