import type { Response } from 'express';

export const SESSION_COOKIE = 'panya_session';

export interface SessionCookieOptions {
  secure: boolean;
}

/** The session token from the signed cookie, if present and untampered. */
export function sessionToken(req: { signedCookies?: unknown }): string | undefined {
  const value = (req.signedCookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function setSessionCookie(res: Response, token: string, expiresAt: Date, options: SessionCookieOptions): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, signed: true, sameSite: 'lax', secure: options.secure, path: '/', expires: expiresAt });
}

export function clearSessionCookie(res: Response, options: SessionCookieOptions): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, signed: true, sameSite: 'lax', secure: options.secure, path: '/' });
}
