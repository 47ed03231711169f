/**
 * A small labelled answer-quality set on the demo tenant's articles: each case is a question (or a
 * conversation) and the facts a correct answer must quote. `expect` lists alternatives per fact:
 * one of them must appear in the answer. `none: true` marks a question the knowledge base cannot
 * answer (the right answer is the no-answer message).
 */
export interface AnswerCase {
  id: string;
  locale: 'en' | 'th';
  /** Earlier user turns of the conversation, asked first through chat. */
  before?: string[];
  query: string;
  /** Every inner list: at least one of its strings appears in the answer. */
  expect?: string[][];
  /** Strings a correct answer must not contain (off-topic quotes). */
  avoid?: string[];
  none?: boolean;
}

export const answerCases: AnswerCase[] = [
  // English, single turn
  { id: 'en-shipping-chiang-mai', locale: 'en', query: 'How much is shipping to Chiang Mai?', expect: [['60 THB']] },
  { id: 'en-refund-time', locale: 'en', query: 'How long do refunds take?', expect: [['7 business days']], avoid: ['My orders', 'Original shipping fees'] },
  { id: 'en-return-window', locale: 'en', query: 'How many days do I have to return an item?', expect: [['14 days']] },
  { id: 'en-same-day', locale: 'en', query: 'How much does same-day delivery cost?', expect: [['120 THB']], avoid: ['Cash on delivery', 'Standard fee'] },
  { id: 'en-otp-valid', locale: 'en', query: 'How long is the sign-up OTP valid?', expect: [['5 minutes']] },
  { id: 'en-locked', locale: 'en', query: 'How long is my account locked after wrong passwords?', expect: [['15 minutes']] },
  { id: 'en-cod-fee', locale: 'en', query: 'Is there a fee for cash on delivery?', expect: [['30 THB']] },
  { id: 'en-bulky', locale: 'en', query: 'What does delivery of a washing machine cost?', expect: [['300 THB']] },
  { id: 'en-none-japan', locale: 'en', query: 'Do you ship to Japan?', none: true },
  // Thai, single turn
  { id: 'th-shipping-chiang-mai', locale: 'th', query: 'ค่าส่งไปเชียงใหม่เท่าไหร่', expect: [['60 บาท']] },
  { id: 'th-refund-time', locale: 'th', query: 'คืนเงินใช้เวลากี่วัน', expect: [['7 วันทำการ']] },
  { id: 'th-return-window', locale: 'th', query: 'คืนสินค้าได้ภายในกี่วัน', expect: [['14 วัน']] },
  { id: 'th-cod-fee', locale: 'th', query: 'เก็บเงินปลายทางมีค่าธรรมเนียมไหม', expect: [['30 บาท']] },
  { id: 'th-same-day', locale: 'th', query: 'ส่งด่วนภายในวันราคาเท่าไหร่', expect: [['120 บาท']] },
  // Follow-ups (chat): the short question is answered from the conversation
  { id: 'en-follow-bangkok', locale: 'en', before: ['How much is shipping to Chiang Mai?'], query: 'and to Bangkok?', expect: [['40 THB']] },
  { id: 'en-follow-refund-cod', locale: 'en', before: ['How long do refunds take?'], query: 'and if I paid cash on delivery?', expect: [['bank account', 'Wallet']], avoid: ['cannot be exchanged'] },
  { id: 'en-follow-remote', locale: 'en', before: ['How much is shipping to Chiang Mai?'], query: 'what about islands?', expect: [['100 THB']] },
  { id: 'th-follow-bangkok', locale: 'th', before: ['ค่าส่งไปเชียงใหม่เท่าไหร่'], query: 'แล้วกรุงเทพฯ ล่ะ', expect: [['40 บาท']] },
  { id: 'th-follow-refund-cod', locale: 'th', before: ['คืนเงินใช้เวลากี่วัน'], query: 'ถ้าจ่ายแบบเก็บเงินปลายทางล่ะ', expect: [['บัญชีธนาคาร', 'Wallet']], avoid: ['ระงับบริการ'] },
  // Locale requested against the question's script: the answer comes in the requested language
  { id: 'th-locale-en-question', locale: 'th', query: 'How long do refunds take?', expect: [['ภาษาอังกฤษ'], ['7 business days']] },
  { id: 'th-locale-th-content', locale: 'th', query: 'PromptPay QR', expect: [['พร้อมเพย์']] },
];
