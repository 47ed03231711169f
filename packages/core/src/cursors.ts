/** Opaque list cursors: the id (or position) to continue after, base64url-encoded. */
export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');

/**
 * The id a cursor stands for: undefined without a cursor, false when it is not a cursor of
 * this list (its id lacks `prefix`).
 */
export function decodeCursor(cursor: string | undefined, prefix: string): string | undefined | false {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return id.startsWith(prefix) ? id : false;
}
