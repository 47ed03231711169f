/** Serialized answers that cannot change, by identity (a frozen answer is shared by every caller that gets it). */
const frozenBodies = new WeakMap<object, Buffer>();

/**
 * A value as a JSON response body. A frozen object is taken as immutable and serialized once:
 * core's cache of search answers freezes them, deeply, and hands the same answer to every caller
 * that asks the same search, whose JSON was a fifth of the CPU of such a request.
 */
export function jsonBytes(value: unknown): Buffer {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return Buffer.from(JSON.stringify(value));
  let bytes = frozenBodies.get(value);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(value));
    frozenBodies.set(value, bytes);
  }
  return bytes;
}
