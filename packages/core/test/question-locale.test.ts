import { describe, expect, it } from 'vitest';
import { DETECT_LOCALE_JS, detectLocale } from '../src/answers/schemas.js';

const samples: [string, 'th' | 'en' | undefined, 'th' | 'en'][] = [
  ['คืนเงินใช้เวลากี่วัน', undefined, 'th'],
  ['How long do refunds take?', 'th', 'en'],
  ['How do I pay with พร้อมเพย์?', 'th', 'en'],
  ['แพ็กเกจ Pro ราคาเท่าไหร่', 'en', 'th'],
  // Nothing to tell them apart: the page's language decides.
  ['1234?', 'th', 'th'],
  ['1234?', 'en', 'en'],
  ['🙂', undefined, 'en'],
];

describe('the language of a question', () => {
  it.each(samples)('%s (page %s) → %s', (text, page, locale) => {
    expect(detectLocale(text, page)).toBe(locale);
  });

  it('is the same rule in the browser scripts', () => {
    const inBrowser = new Function(`return (${DETECT_LOCALE_JS});`)() as (text: string, tie?: string) => string;
    for (const [text, page, locale] of samples) expect(inBrowser(text, page)).toBe(locale);
  });
});
