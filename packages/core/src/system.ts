import { randomBytes } from 'node:crypto';
import type { Clock, IdPrefix, Ids, Logger } from './ports/system.js';

export const systemClock: Clock = { now: () => new Date() };

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes are drawn from the OS in blocks: one call per id would cost more than the id. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** `n` random base62 characters, drawn without modulo bias. */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
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

