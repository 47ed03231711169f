/** The help center's own words (its "chrome", kept in core's messages) and how a request picks its locale. */
import { HELP_CENTER_TEXT, type HelpCenterText, type Locale } from '@panya/core';
import type { Request } from 'express';

export type HelpLocale = Locale;
export type Chrome = HelpCenterText;
export const CHROME = HELP_CENTER_TEXT;

/** `?lang=th|en` first, then the best of th/en in `Accept-Language`, else English. */
export function helpLocale(req: Request): { locale: HelpLocale; explicit: boolean } {
  const lang = req.query.lang;
  if (lang === 'th' || lang === 'en') return { locale: lang, explicit: true };
  const accepted = req.get('accept-language') ? req.acceptsLanguages('th', 'en') : false;
  return { locale: accepted === 'th' ? 'th' : 'en', explicit: false };
}
