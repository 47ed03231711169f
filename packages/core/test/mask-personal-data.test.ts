import { describe, expect, it } from 'vitest';
import { maskPersonalData } from '../src/insights/mask-personal-data.js';
import { luhnValid as isLuhnCard, thaiIdValid as isThaiNationalId } from '../src/privacy/pii.js';

describe('maskPersonalData', () => {
  it.each([
    ['e-mail', 'my address is somchai.k+shop@example.co.th thanks', 'my address is [EMAIL] thanks'],
    ['Thai e-mail local part', 'ส่งไปที่ สมชาย@ตัวอย่าง.ไทย ได้ไหม', 'ส่งไปที่ [EMAIL] ได้ไหม'],
    ['Thai ID with a valid check digit', 'เลขบัตร 1101700203166 ค่ะ', 'เลขบัตร [THAI_ID] ค่ะ'],
    ['Thai ID written in groups', 'ID 1-1017-00203-16-6 please', 'ID [THAI_ID] please'],
    ['13 digits with a wrong check digit stay', 'order 1101700203167 is late', 'order 1101700203167 is late'],
    ['Luhn-valid card', 'card 4111 1111 1111 1111 was charged', 'card [CARD] was charged'],
    ['Luhn-valid card with dashes', 'card 5500-0000-0000-0004', 'card [CARD]'],
    ['16 digits failing Luhn stay', 'ref 4111111111111112', 'ref 4111111111111112'],
    ['Thai mobile', 'โทร 081-234-5678 นะคะ', 'โทร [PHONE] นะคะ'],
    ['international phone', 'call +66 81 234 5678 today', 'call [PHONE] today'],
    ['Bangkok landline', 'office 02 123 4567', 'office [PHONE]'],
    ['a date is not a phone', 'since 2026-11-27 it fails', 'since 2026-11-27 it fails'],
    ['an amount is not a phone', 'I paid 1,250.00 baht for 12 items', 'I paid 1,250.00 baht for 12 items'],
    ['an order number without a trunk prefix stays', 'order 123456789 missing', 'order 123456789 missing'],
    ['several kinds at once', 'a@b.io, 0812345678 and 1101700203166', '[EMAIL], [PHONE] and [THAI_ID]'],
  ])('%s', (_name, input, masked) => {
    expect(maskPersonalData(input)).toBe(masked);
  });

  it('checks the Thai ID digit and the Luhn sum', () => {
    expect(isThaiNationalId('1101700203166')).toBe(true);
    expect(isThaiNationalId('1101700203160')).toBe(false);
    expect(isLuhnCard('4111111111111111')).toBe(true);
    expect(isLuhnCard('4111111111111121')).toBe(false);
  });
});
