/** The help center's own words (its "chrome"), in English and Thai. */
import type { Request } from 'express';

export const HELP_LOCALES = ['en', 'th'] as const;
export type HelpLocale = (typeof HELP_LOCALES)[number];

const en = {
  helpCenter: 'Help center',
  searchPlaceholder: 'Search articles',
  search: 'Search',
  articles: 'Articles',
  allArticles: 'All articles',
  resultsFor: (q: string) => `Results for “${q}”`,
  noResults: 'No article matches your search. Try other words, or ask below.',
  askTitle: 'Ask a question',
  askPlaceholder: 'Type your question',
  ask: 'Ask',
  waiting: 'Finding an answer…',
  sources: 'Sources',
  notGrounded: 'The help center has no answer to this yet. Try other words or browse the articles.',
  updated: 'Updated',
  notFound: 'Page not found',
  notFoundText: 'There is no help-center page at this address.',
  gone: 'This help center is gone',
  goneText: 'The organisation that published it has removed it.',
  unavailable: 'Questions cannot be answered right now. Please try again later.',
  language: 'ภาษาไทย',
};

const th: typeof en = {
  helpCenter: 'ศูนย์ช่วยเหลือ',
  searchPlaceholder: 'ค้นหาบทความ',
  search: 'ค้นหา',
  articles: 'บทความ',
  allArticles: 'บทความทั้งหมด',
  resultsFor: (q: string) => `ผลการค้นหา “${q}”`,
  noResults: 'ไม่พบบทความที่ตรงกับคำค้นหา ลองใช้คำอื่น หรือถามคำถามด้านล่าง',
  askTitle: 'ถามคำถาม',
  askPlaceholder: 'พิมพ์คำถามของคุณ',
  ask: 'ถาม',
  waiting: 'กำลังหาคำตอบ…',
  sources: 'แหล่งอ้างอิง',
  notGrounded: 'ศูนย์ช่วยเหลือยังไม่มีคำตอบสำหรับคำถามนี้ ลองใช้คำอื่นหรือดูบทความทั้งหมด',
  updated: 'อัปเดตเมื่อ',
  notFound: 'ไม่พบหน้านี้',
  notFoundText: 'ไม่มีหน้าศูนย์ช่วยเหลือที่ที่อยู่นี้',
  gone: 'ศูนย์ช่วยเหลือนี้ถูกลบแล้ว',
  goneText: 'องค์กรที่เผยแพร่ได้ลบศูนย์ช่วยเหลือนี้แล้ว',
  unavailable: 'ขณะนี้ยังตอบคำถามไม่ได้ กรุณาลองใหม่ภายหลัง',
  language: 'English',
};

export type Chrome = typeof en;
export const CHROME: Record<HelpLocale, Chrome> = { en, th };

/** `?lang=th|en` first, then the best of th/en in `Accept-Language`, else English. */
export function helpLocale(req: Request): { locale: HelpLocale; explicit: boolean } {
  const lang = req.query.lang;
  if (lang === 'th' || lang === 'en') return { locale: lang, explicit: true };
  const accepted = req.get('accept-language') ? req.acceptsLanguages('th', 'en') : false;
  return { locale: accepted === 'th' ? 'th' : 'en', explicit: false };
}
