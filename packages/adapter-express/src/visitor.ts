import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A visitor's own id, when its page keeps one (a cookie on the help center, a header from a page's script). */
export const VISITOR_COOKIE = 'panya_vid';
export const VISITOR_HEADER = 'x-panya-visitor';
/** A visitor token the tenant's backend signed: the widget's header, the help center's cookie. */
export const VISITOR_TOKEN_HEADER = 'x-panya-visitor-token';
export const VISITOR_TOKEN_COOKIE = 'panya_vt';

/** The visitor token a request carries (header first, then the help center's cookie), if any. */
export function visitorTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers[VISITOR_TOKEN_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const cookie = cookieValue(req.headers.cookie, VISITOR_TOKEN_COOKIE);
  if (!cookie) return undefined;
  try {
    return decodeURIComponent(cookie);
  } catch {
    return cookie;
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The visitor behind a public surface's request (core's `RequestContext.visitor`): the client's
 * address with the visitor's own id if the page sent one, hashed so neither is kept as sent.
 * A visitor who drops its id is still counted by its address.
 */
export function visitorOf(req: IncomingMessage, address: string | undefined): string {
  const header = req.headers[VISITOR_HEADER];
  const id = (typeof header === 'string' ? header : cookieValue(req.headers.cookie, VISITOR_COOKIE)) ?? '';
  return createHash('sha256').update(`${address ?? ''}\n${id.slice(0, 128)}`).digest('base64url').slice(0, 22);
}
