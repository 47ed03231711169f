import { randomBytes } from 'node:crypto';
import type { Clock, IdPrefix, Ids, Logger } from './ports/system.js';

export const systemClock: Clock = { now: () => new Date() };

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` random base62 characters, drawn without modulo bias. */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += BASE62[byte % 62];
    }
  }
  return out;
}

function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

/**
 * Prefixed ids whose first 8 characters encode milliseconds since the epoch (base62),
 * so ids sort by creation time and serve as pagination cursors; 14 random characters follow.
 * A per-process counter keeps ids from one millisecond in order.
 */
export function createIds(clock: Clock = systemClock): Ids {
  let lastMs = 0;
  let seq = 0;
  return {
    next(prefix: IdPrefix) {
      const ms = clock.now().getTime();
      seq = ms === lastMs ? seq + 1 : 0;
      lastMs = ms;
      return `${prefix}_${toBase62(ms, 8)}${toBase62(seq, 3)}${randomBase62(11)}`;
    },
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

