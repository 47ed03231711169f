import { describe, expect, it } from 'vitest';
import { compileRedactionPatterns, luhnValid, redactPersonalData, thaiIdValid } from '../src/privacy/pii.js';

type Row = [text: string, expected: string];

/** Each kind in English and Thai text, then near misses that must come back unchanged. */
const TABLE: Record<string, { redacted: Row[]; kept: string[] }> = {
  email: {
    redacted: [
      ['Write to jane.doe+billing@example.co.th today', 'Write to [EMAIL] today'],
      ['ติดต่อ somchai_k@mail.go.th ได้เลยค่ะ', 'ติดต่อ [EMAIL] ได้เลยค่ะ'],
      ['อีเมลผมคือsomchai@gmail.comครับ', 'อีเมลผมคือ[EMAIL]ครับ'],
      ['<A.B@Sub.Example.ORG>', '<[EMAIL]>'],
    ],
    kept: ['the @mention feature', 'user@localhost has no domain', 'price 5@10 baht', 'ส่งมาที่ @panya_support ใน LINE', 'a@b.c is too short a top-level domain'],
  },
  thai_id: {
    redacted: [
      ['My ID is 1103702345679.', 'My ID is [THAI_ID].'],
      ['เลขบัตรประชาชน 3-1009-00123-45-5 ค่ะ', 'เลขบัตรประชาชน [THAI_ID] ค่ะ'],
      ['เลขประจำตัว๑๑๐๓๗๐๒๓๔๕๖๗๙', 'เลขประจำตัว[THAI_ID]'],
    ],
    // Wrong check digit, 12 and 14 digits, glued to letters, leading zero.
    kept: ['ID 1103702345678', 'เลข 3-1009-00123-45-4', 'code 110370234567', 'tracking 11037023456791', 'TH1103702345679X', '0103702345672'],
  },
  card: {
    redacted: [
      ['Card 4111 1111 1111 1111 exp 12/29', 'Card [CARD] exp 12/29'],
      ['บัตรเครดิต 5555-5555-5555-4444 ครับ', 'บัตรเครดิต [CARD] ครับ'],
      ['amex 3782 822463 10005', 'amex [CARD]'],
      ['เลขบัตร4012888888881881', 'เลขบัตร[CARD]'],
    ],
    // Luhn fails, too short, mixed separators, part of a longer code.
    kept: ['Card 4111 1111 1111 1112', 'บัตร 5555-5555-5555-4445', 'order 411111111111', 'ref 4111-1111 1111-1111', 'INV4111111111111111'],
  },
  phone: {
    redacted: [
      ['Call me on 081-234-5678 please', 'Call me on [PHONE] please'],
      ['โทร 0812345678 หรือ 02 123 4567 ค่ะ', 'โทร [PHONE] หรือ [PHONE] ค่ะ'],
      ['เบอร์053-123-456', 'เบอร์[PHONE]'],
      ['Reach us at +66 81 234 5678.', 'Reach us at [PHONE].'],
      ['US office +1 (415) 555-2671', 'US office [PHONE]'],
      ['+442071838750', '[PHONE]'],
      ['เบอร์ ๐๘๑-๒๓๔-๕๖๗๘', 'เบอร์ [PHONE]'],
    ],
    // Too short, wrong prefix, a version, a date, a price, an E.164 number with 16 digits.
    kept: ['call 081-234-567', 'ext 0112345678', 'version 1.2.3', 'วันที่ 12-05-2567', 'ราคา 1,299 บาท', '+1234567890123456', 'room 12345678'],
  },
};

describe('redactPersonalData', () => {
  for (const [kind, { redacted, kept }] of Object.entries(TABLE)) {
    describe(kind, () => {
      it.each(redacted)('redacts %j', (text, expected) => {
        const result = redactPersonalData(text);
        expect(result.text).toBe(expected);
        expect(result.counts[kind as 'email']).toBeGreaterThan(0);
      });
      it.each(kept.map((t) => [t]))('keeps the near miss %j', (text) => {
        expect(redactPersonalData(text)).toEqual({ text, counts: {} });
      });
    });
  }

  it('redacts several kinds in one Thai message and counts each', () => {
    const result = redactPersonalData('สวัสดีค่ะ ชื่อสมศรี อีเมล somsri@example.com โทร 089-876-5432 บัตร 4111111111111111 เลขบัตรประชาชน 1103702345679');
    expect(result.text).toBe('สวัสดีค่ะ ชื่อสมศรี อีเมล [EMAIL] โทร [PHONE] บัตร [CARD] เลขบัตรประชาชน [THAI_ID]');
    expect(result.counts).toEqual({ email: 1, phone: 1, card: 1, thai_id: 1 });
  });

  it('stays linear on hostile input (no catastrophic backtracking in the built-in patterns)', () => {
    // Each of these would take exponential or high-polynomial time under a naive pattern; the
    // assertion is on the result, the input size makes a regression hang the test run.
    const hostile = ['a'.repeat(20_000) + '@', '1 '.repeat(10_000), '+1' + '-1'.repeat(10_000), 'a.'.repeat(10_000) + '@x'];
    for (const text of hostile) expect(redactPersonalData(text).text.length).toBeGreaterThan(0);
  });
});

describe('operator patterns', () => {
  it('redacts with the pattern name as marker, in Thai and English text', () => {
    const compiled = compileRedactionPatterns([
      { name: 'order_no', pattern: 'ORD-[0-9]{6}' },
      { name: 'member', pattern: 'สมาชิก[0-9]{4}' },
    ]);
    if (!compiled.ok) throw new Error('expected to compile');
    expect(redactPersonalData('Order ORD-123456 and ORD-12345 ไอดีสมาชิก1234 ครับ', compiled.compiled)).toEqual({
      text: 'Order [ORDER_NO] and ORD-12345 ไอดี[MEMBER] ครับ',
      counts: { 'custom:order_no': 1, 'custom:member': 1 },
    });
  });

  it('runs a pattern that backtracks catastrophically in JavaScript in linear time (RE2)', () => {
    const compiled = compileRedactionPatterns([{ name: 'evil', pattern: '(a+)+b' }]);
    if (!compiled.ok) throw new Error('expected to compile');
    // /(a+)+b/ on 40 a's without a b would not finish with a backtracking engine.
    expect(redactPersonalData('a'.repeat(5_000) + 'c', compiled.compiled).text).toBe('a'.repeat(5_000) + 'c');
    expect(redactPersonalData('xaaab', compiled.compiled).text).toBe('x[EVIL]');
  });

  it.each([
    [{ name: 'Bad Name', pattern: 'x' }, 'name'],
    [{ name: 'ok', pattern: '' }, 'pattern'],
    [{ name: 'ok', pattern: 'x'.repeat(201) }, 'pattern'],
    [{ name: 'ok', pattern: '(a)\\1' }, 'pattern'],
    [{ name: 'ok', pattern: '(?=a)b' }, 'pattern'],
    [{ name: 'ok', pattern: '[unclosed' }, 'pattern'],
    [{ name: 'ok', pattern: 'a*' }, 'pattern'],
  ] as const)('refuses %j naming the %s', (pattern, field) => {
    const compiled = compileRedactionPatterns([pattern]);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.problems[0]).toMatchObject({ index: 0, field });
  });

  it('refuses more than 20 patterns', () => {
    expect(compileRedactionPatterns(Array.from({ length: 21 }, (_, i) => ({ name: `p${i}`, pattern: `x${i}` }))).ok).toBe(false);
  });
});

describe('check digits', () => {
  it.each([
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['378282246310005', true],
  ])('Luhn %s → %s', (digits, valid) => expect(luhnValid(digits)).toBe(valid));
  it.each([
    ['1103702345679', true],
    ['1103702345670', false],
    ['3100900123455', true],
    ['0100900123455', false],
  ])('Thai ID %s → %s', (digits, valid) => expect(thaiIdValid(digits)).toBe(valid));
});
