import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented cron secret (the scheduler's bearer token) with the configured one in constant time. */
export function cronSecretMatches(presented: string | undefined, configured: string | undefined): boolean {
  if (!presented || !configured) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(configured));
}
