/**
 * Every user-facing sentence the engine writes in more than one language, in one place: what
 * answers say when the knowledge base has none, the refusals a reader sees (limits, provider
 * failures, hostnames) and the help center's own words. Services and adapters import them from here;
 * a new locale is a new column in each table below.
 */

export const LOCALES = ['th', 'en'] as const;
/** The languages user-facing text is written in. */
export type Locale = (typeof LOCALES)[number];

const THAI_LETTERS = /[\u0E01-\u0E4E]/g;
const LATIN_LETTERS = /[A-Za-z\u00C0-\u024F]/g;

/**
 * The language a question is written in, when the caller does not say: more Thai letters than
 * Latin ones → th, more Latin → en ("How do I pay with พร้อมเพย์?" is English). Only a tie (a
 * question of digits or emoji) is settled by `tieBreak`, the page's language, else by any Thai.
 */
export function detectLocale(text: string, tieBreak?: Locale): Locale {
  const thai = text.match(THAI_LETTERS)?.length ?? 0;
  const latin = text.match(LATIN_LETTERS)?.length ?? 0;
  if (thai !== latin) return thai > latin ? 'th' : 'en';
  return tieBreak ?? (thai > 0 ? 'th' : 'en');
}

/**
 * `detectLocale` as a browser function expression (ES2017), for the widget and the help center's
 * ask box, which choose their answer frame before the answer arrives: the same rule, built from
 * the same patterns.
 */
export const DETECT_LOCALE_JS = `function (text, tie) { var th = (text.match(/${THAI_LETTERS.source}/g) || []).length, la = (text.match(/${LATIN_LETTERS.source}/g) || []).length; return th !== la ? (th > la ? 'th' : 'en') : tie || (th > 0 ? 'th' : 'en'); }`;

/** A user-facing message in each supported locale. */
export type LocalizedText = Record<Locale, string>;

// ---- Answers ------------------------------------------------------------------------------------

/** What a generator answers when the context does not answer the question (also used by model-backed generators). */
export const NO_ANSWER: Readonly<LocalizedText> = {
  en: "I couldn't find an answer to that in the knowledge base.",
  th: 'ขออภัย ไม่พบคำตอบของคำถามนี้ในฐานความรู้',
};

/** Said before quotes in the other language, when the knowledge base answers only in that one. */
export const OTHER_LANGUAGE_LEAD: Readonly<LocalizedText> = {
  en: 'The knowledge base answers this in Thai:',
  th: 'ฐานความรู้มีคำตอบนี้เป็นภาษาอังกฤษ:',
};

/** A chat answer that broke off for a reason other than the model provider. */
export const ANSWER_INTERRUPTED: Readonly<LocalizedText> = {
  en: 'The answer could not be completed; please try again.',
  th: 'ขออภัย ระบบตอบคำถามขัดข้องชั่วคราว กรุณาลองใหม่อีกครั้ง',
};

/** The model provider failed: transiently (retry shortly) or by refusing the request (configuration). */
export function providerUnavailable(provider: string, transient: boolean): LocalizedText {
  return transient
    ? {
        en: `The model provider (${provider}) could not be reached or is overloaded; try again shortly.`,
        th: 'ขออภัย ผู้ให้บริการโมเดลไม่ตอบสนองชั่วคราว กรุณาลองใหม่อีกครั้งในอีกสักครู่',
      }
    : {
        en: `The model provider (${provider}) refused the request; the server's model configuration needs attention.`,
        th: 'ขออภัย ผู้ให้บริการโมเดลปฏิเสธคำขอ ผู้ดูแลระบบต้องตรวจสอบการตั้งค่าโมเดล',
      };
}

// ---- Limits -------------------------------------------------------------------------------------

/** The chat hard cap is reached; `cap` is already formatted for reading ("1,500"). */
export function chatHardCapReached(cap: string): LocalizedText {
  return {
    en: `This account has reached its monthly limit of ${cap} chat resolutions, counted across all its workspaces. Documents can still be viewed; upgrade the plan to keep chatting.`,
    th: `บัญชีนี้ใช้แชตครบโควตา ${cap} บทสนทนาของเดือนนี้แล้ว (นับรวมทุกเวิร์กสเปซของบัญชี) ยังเปิดอ่านเอกสารได้ตามปกติ กรุณาอัปเกรดแพ็กเกจเพื่อใช้งานแชตต่อ`,
  };
}

/** A rate limit refused the call; `what` names the counted calls in English ("queries"). */
/** Billing on a server without a payment processor: usage is counted, nothing is charged. */
export const BILLING_NOT_CONFIGURED: LocalizedText = {
  en: 'Billing is not configured on this server: usage is counted, nothing is charged, and there is no checkout.',
  th: 'เซิร์ฟเวอร์นี้ยังไม่ได้ตั้งค่าการเรียกเก็บเงิน: ระบบนับการใช้งาน แต่ไม่มีการเรียกเก็บเงินและไม่มีการชำระเงิน',
};

/** The limits a counted call is held to: the quota keys an operator overrides (`--quota key=…`). */
export type RateLimitQuota = 'queriesPerDay' | 'perKeyPerHour' | 'mcpToolsPerHour' | 'publicSitePerHour' | 'publicSitePerDay' | 'publicVisitorPerHour';

const LIMIT_NAMES: Record<RateLimitQuota, { en: string; th: string }> = {
  queriesPerDay: { en: 'queries per day for this tenant', th: 'คำค้นต่อวันของ tenant นี้' },
  perKeyPerHour: { en: 'queries per hour for this API key', th: 'คำค้นต่อชั่วโมงของ API key นี้' },
  mcpToolsPerHour: { en: 'MCP tool calls per hour for this API key', th: 'การเรียกเครื่องมือ MCP ต่อชั่วโมงของ API key นี้' },
  publicSitePerHour: { en: 'questions per hour for this site', th: 'คำถามต่อชั่วโมงของเว็บไซต์นี้' },
  publicSitePerDay: { en: 'questions per day for this site', th: 'คำถามต่อวันของเว็บไซต์นี้' },
  publicVisitorPerHour: { en: 'questions per hour for one visitor', th: 'คำถามต่อชั่วโมงของผู้เยี่ยมชมหนึ่งคน' },
};

/**
 * A refused call, explained: which limit (and its quota key), when it resets, and how the
 * server's operator changes it for this tenant.
 */
export function rateLimitReached(r: { limit: number; quota: RateLimitQuota; resetAt: Date; retryAfterSeconds: number; tenantSlug: string }): LocalizedText {
  const at = r.resetAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const change = `panya tenant update --slug ${r.tenantSlug} --quota ${r.quota}=<number|unlimited>`;
  return {
    en: `Rate limit reached: ${r.limit} ${LIMIT_NAMES[r.quota].en} (${r.quota}). It resets at ${at}, in ${r.retryAfterSeconds} s. The server's operator can change it: ${change}.`,
    th: `ใช้งานครบขีดจำกัด ${r.limit} ${LIMIT_NAMES[r.quota].th} (${r.quota}) แล้ว จะรีเซ็ตเวลา ${at} (อีก ${r.retryAfterSeconds} วินาที) ผู้ดูแลเซิร์ฟเวอร์เปลี่ยนได้ด้วย ${change}`,
  };
}

// ---- Custom hostnames ---------------------------------------------------------------------------

export const APEX_EXPLANATION =
  'An apex (root) domain cannot point to the help center with a plain CNAME record. ' +
  'Use a subdomain such as help.<your domain>, or upgrade to Enterprise and publish an ALIAS record ' +
  '(or use your DNS provider\'s CNAME flattening) at the apex.';

/** An apex hostname on a plan without apex support. */
export function apexRefused(hostname: string): LocalizedText {
  return {
    en: `"${hostname}" is an apex domain. ${APEX_EXPLANATION}`,
    th:
      `"${hostname}" เป็นโดเมนหลัก (apex) ซึ่งใช้ระเบียน CNAME ธรรมดาไม่ได้ ` +
      'ให้ใช้โดเมนย่อย เช่น help.<โดเมนของคุณ> หรืออัปเกรดเป็น Enterprise แล้วใช้ระเบียน ALIAS (หรือ CNAME flattening ของผู้ให้บริการ DNS)',
  };
}

/** The inline messages shown next to a hostname for its stored verification error, by cause. */
export const HOSTNAME_FAILURES = {
  dns_not_propagated: {
    en: 'DNS not propagated: the CNAME or TXT record is not yet visible to the edge resolvers. Check the records and try again later.',
    th: 'DNS ยังไม่เผยแพร่: ระบบ edge ยังมองไม่เห็นระเบียน CNAME หรือ TXT โปรดตรวจสอบระเบียนแล้วลองใหม่ภายหลัง',
  },
  txt_mismatch: {
    en: 'TXT record mismatch: the published TXT value differs from the value shown. Copy it exactly, without extra spaces or a trailing dot.',
    th: 'ระเบียน TXT ไม่ตรงกัน: ค่าที่เผยแพร่ไม่ตรงกับค่าที่แสดง โปรดคัดลอกให้ตรงทุกตัวอักษร ไม่มีช่องว่างหรือจุดท้าย',
  },
  already_registered: {
    en: 'Hostname already registered elsewhere (another zone or another tenant). Contact support.',
    th: 'โฮสต์เนมนี้ลงทะเบียนไว้ที่อื่นแล้ว (โซนอื่นหรือผู้ใช้รายอื่น) โปรดติดต่อฝ่ายสนับสนุน',
  },
  edge_refused: {
    en: 'The edge provider stopped serving this hostname (blocked, moved or certificate timed out). Remove it and add it again, or contact support.',
    th: 'ผู้ให้บริการ edge หยุดให้บริการโฮสต์เนมนี้ (ถูกบล็อก ย้าย หรือออกใบรับรองไม่ทันเวลา) โปรดลบแล้วเพิ่มใหม่ หรือติดต่อฝ่ายสนับสนุน',
  },
} as const satisfies Record<string, LocalizedText>;

// ---- Help center --------------------------------------------------------------------------------

const helpCenterEn = {
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
  signInAgain: 'Please sign in again',
  signInAgainText: 'Your sign-in to this help center could not be confirmed. Go back to the site you came from and open the help center from there.',
  gone: 'This help center is gone',
  goneText: 'The organisation that published it has removed it.',
  suspended: 'This help center is paused',
  suspendedText: (plan: string) => `The organisation's plan no longer includes this help center. Its owner can restore it by upgrading to ${plan}.`,
  unavailable: 'Questions cannot be answered right now. Please try again later.',
  busy: 'Too many requests',
  busyText: 'This address has opened many pages in the last minute. Please wait a moment and try again.',
  language: 'ภาษาไทย',
};

/** The help center's own words (its "chrome"). */
export type HelpCenterText = typeof helpCenterEn;

export const HELP_CENTER_TEXT: Readonly<Record<Locale, HelpCenterText>> = {
  en: helpCenterEn,
  th: {
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
    signInAgain: 'กรุณาเข้าสู่ระบบอีกครั้ง',
    signInAgainText: 'ยืนยันการเข้าสู่ระบบของคุณกับศูนย์ช่วยเหลือนี้ไม่ได้ กลับไปที่เว็บไซต์เดิมแล้วเปิดศูนย์ช่วยเหลือจากที่นั่น',
    gone: 'ศูนย์ช่วยเหลือนี้ถูกลบแล้ว',
    goneText: 'องค์กรที่เผยแพร่ได้ลบศูนย์ช่วยเหลือนี้แล้ว',
    suspended: 'ศูนย์ช่วยเหลือนี้ถูกระงับชั่วคราว',
    suspendedText: (plan: string) => `แพ็กเกจขององค์กรไม่รวมศูนย์ช่วยเหลือนี้แล้ว เจ้าของบัญชีเปิดใช้อีกครั้งได้โดยอัปเกรดเป็น ${plan}`,
    unavailable: 'ขณะนี้ยังตอบคำถามไม่ได้ กรุณาลองใหม่ภายหลัง',
    busy: 'มีคำขอมากเกินไป',
    busyText: 'ที่อยู่นี้เปิดหน้าจำนวนมากในนาทีที่ผ่านมา กรุณารอสักครู่แล้วลองใหม่',
    language: 'English',
  },
};

// ---- Chat widget --------------------------------------------------------------------------------

/** The chat widget's words; the browser script carries them as JSON. */
export const WIDGET_TEXT: Readonly<Record<Locale, Readonly<Record<string, string>>>> = {
  en: { open: 'Open help chat', close: 'Close chat', title: 'Help', label: 'Your question', placeholder: 'Ask a question…', send: 'Send', sources: 'Sources', thinking: 'Finding an answer…', failed: 'The answer could not be completed; please try again.', you: 'You', bot: 'Answer', intro: 'Ask anything about our products and services.' },
  th: { open: 'เปิดแชทช่วยเหลือ', close: 'ปิดแชท', title: 'ช่วยเหลือ', label: 'คำถามของคุณ', placeholder: 'พิมพ์คำถาม…', send: 'ส่ง', sources: 'แหล่งอ้างอิง', thinking: 'กำลังหาคำตอบ…', failed: 'ขออภัย ตอบคำถามไม่สำเร็จ กรุณาลองใหม่อีกครั้ง', you: 'คุณ', bot: 'คำตอบ', intro: 'ถามเรื่องสินค้าและบริการของเราได้เลย' },
};
