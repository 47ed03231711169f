import { describe, expect, it } from 'vitest';
import { ExtractiveGenerator, NO_ANSWER, OTHER_LANGUAGE_LEAD, answerKind, condenseQuery } from '../src/answers/extractive.js';
import { countWordTokens } from '../src/knowledge/chunker.js';
import { baseStem } from '../src/text/english-forms.js';
import { termOf } from '../src/text/tokenizer.js';
import type { ChatTurn, GenerateRequest, GeneratorContext, GeneratorEvent } from '../src/answers/ports/generator.js';

function passage(n: number, title: string, text: string, headingPath: string[] = []): GeneratorContext {
  return { n, chunkId: `chunk-${n}`, documentId: `doc-${n}`, title, headingPath, text };
}

const EN = [
  passage(
    1,
    'Returns policy',
    '# Returns\nYou can return most items within 30 days of delivery. Items must be unused and in their **original packaging**.\n\nRefunds are issued to the original payment method within 5 business days.',
  ),
  passage(
    2,
    'Shipping',
    'Orders ship from our Bangkok warehouse. Delivery within Bangkok takes 1–2 business days. Deliveries to other provinces take 3–5 business days.\n\n- Express shipping is available for an extra fee of 120 baht.\n- Tracking numbers are emailed when the parcel leaves the warehouse.',
    ['Delivery'],
  ),
  passage(
    3,
    'Account help',
    'To reset your password, open Settings and choose **Reset password**. A reset link is sent to your email.\n\n| Plan | Price |\n|---|---|\n| Pro | 990 baht/month |\n| Team | 2,490 baht/month |',
  ),
];

const TH = [
  passage(
    1,
    'นโยบายการคืนสินค้า',
    'ลูกค้าสามารถคืนสินค้าได้ภายใน 30 วันหลังได้รับสินค้า สินค้าต้องอยู่ในสภาพเดิมและยังไม่ผ่านการใช้งาน เงินจะคืนเข้าช่องทางชำระเงินเดิมภายใน 5 วันทำการ',
  ),
  passage(
    2,
    'การจัดส่งสินค้า',
    'การจัดส่งในกรุงเทพฯ ใช้เวลา 1-2 วันทำการ การจัดส่งไปต่างจังหวัดใช้เวลา 3-5 วันทำการ มีบริการจัดส่งด่วนโดยมีค่าบริการเพิ่ม 120 บาท',
  ),
];

async function collect(request: GenerateRequest): Promise<{ text: string; events: GeneratorEvent[] }> {
  const events: GeneratorEvent[] = [];
  for await (const e of new ExtractiveGenerator().generate(request)) events.push(e);
  const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
  return { text, events };
}

const answer = async (query: string, context: GeneratorContext[], locale: 'en' | 'th' = 'en') =>
  (await collect({ query, context, locale })).text;

const cited = (text: string) => [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

const POS = [
  passage(
    1,
    'Refunds',
    '# Refunds\n\n## Refund a card payment\n\nCard refunds are possible for up to 60 days after the sale.\n\n1. Open **Bills** and find the bill.\n2. Tap **Refund** and choose the items.\n3. Enter the manager PIN and tap **Confirm refund**.\n\nThe money goes back to the card within 7 business days.\n\n## Free trial\n\nEvery new shop gets a 30-day free trial. No credit card is needed for the trial.',
  ),
  passage(2, 'Printers', '# Printers\n\n## Thai text prints as strange symbols\n\nThe printer is using the wrong code page. Set **Code page** to **TIS-620**, then print a test page. If it is still wrong, turn on **Print Thai as image**.'),
  passage(3, 'History', 'The shop opened in 2015. Our founder Franklin D. Roosevelt Jr. liked coffee.[5] The first branch was in Bangkok.'),
];

const TH_POS = [
  passage(
    1,
    'การคืนเงิน',
    '## คืนเงินที่จ่ายผ่านพร้อมเพย์\n\nเงินที่ลูกค้าจ่ายผ่านพร้อมเพย์ ระบบไม่สามารถโอนคืนให้อัตโนมัติได้ ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น',
  ),
  passage(2, 'ประวัติ', 'นายกษิต ภิรมย์ เคยดำรงตำแหน่งรัฐมนตรีว่าการกระทรวงการต่างประเทศ ภาพยนตร์เรื่องนี้ออกฉายในปี พ.ศ. 2540 และได้รับรางวัลหลายรางวัล'),
];

describe('ExtractiveGenerator', () => {
  it('quotes the supporting sentence of a lower-ranked passage and cites its number', async () => {
    const text = await answer('How long does delivery to the provinces take?', EN);
    expect(text).toContain('Deliveries to other provinces take 3–5 business days. [2]');
    expect(new Set(cited(text))).toEqual(new Set([2]));
  });

  it('picks the passage that answers, not the top-ranked one', async () => {
    const text = await answer('How do I reset my password?', EN);
    expect(text).toMatch(/^To reset your password, open Settings and choose Reset password\. \[3\]/);
    expect(cited(text).every((n) => n === 3)).toBe(true);
  });

  it('answers a Thai question with Thai sentences and citations', async () => {
    const text = await answer('ส่งของไปต่างจังหวัดใช้เวลากี่วันคะ', TH, 'th');
    expect(text).toMatch(/^การจัดส่งไปต่างจังหวัดใช้เวลา 3-5 วันทำการ/);
    expect(text).not.toContain('กรุงเทพ');
    expect(text).not.toMatch(/[A-Za-z]/);
    expect(new Set(cited(text))).toEqual(new Set([2]));
    // Only the sentence about returns answers this one, though "วัน" is everywhere.
    const returns = await answer('คืนสินค้าได้ภายในกี่วัน', TH, 'th');
    expect(returns).toMatch(/^ลูกค้าสามารถคืนสินค้าได้ภายใน 30 วันหลังได้รับสินค้า \[1\]/);
    expect(cited(returns).every((n) => n === 1)).toBe(true);
  });

  it('quotes the Thai clause group that answers, not the parallel sentence before it', async () => {
    const text = await answer('จัดส่งด่วนมีค่าบริการเท่าไหร่', TH, 'th');
    expect(text).toMatch(/มีบริการจัดส่งด่วนโดยมีค่าบริการเพิ่ม 120 บาท \[2\]$/);
    expect(text).not.toContain('1-2 วันทำการ');
  });

  it('says it found nothing, in the requested locale and without citations, when nothing answers', async () => {
    for (const [query, context, locale] of [
      ['What is the capital of France?', EN, 'en'],
      ['Do you ship to Japan?', EN, 'en'],
      ['เมืองหลวงของฝรั่งเศสคืออะไร', TH, 'th'],
      ['How long does delivery to the provinces take?', [], 'th'],
      ['How long does delivery to the provinces take?', [], 'en'],
    ] as const) {
      const text = await answer(query, [...context], locale);
      expect(text, query).toBe(NO_ANSWER[locale]);
      expect(text).not.toContain('[');
    }
  });

  it('never treats a bare question word as support', async () => {
    expect(await answer('How?', EN)).toBe(NO_ANSWER.en);
    expect(await answer('what is it?', EN)).toBe(NO_ANSWER.en);
    expect(await answer('อะไรคะ', TH, 'th')).toBe(NO_ANSWER.th);
  });

  it('says in Thai that the answer is quoted in English when only English passages answer a Thai-locale request', async () => {
    const text = await answer('express shipping fee', EN, 'th');
    expect(text).toBe(`${OTHER_LANGUAGE_LEAD.th} Express shipping is available for an extra fee of 120 baht. [2]`);
  });

  it('answers from the passages in the requested language when one of them answers', async () => {
    const mixed = [...EN, passage(4, 'Express', 'บริการ Express shipping ค่าบริการเพิ่ม 120 บาท จัดส่งภายใน 1 วันทำการ')];
    expect(await answer('express shipping', mixed, 'th')).toBe('บริการ Express shipping ค่าบริการเพิ่ม 120 บาท จัดส่งภายใน 1 วันทำการ [4]');
    expect(await answer('express shipping', mixed, 'en')).toContain('Express shipping is available for an extra fee of 120 baht. [2]');
  });

  it('quotes only sentences stating the kind of fact asked for ("how long" wants a duration)', async () => {
    const refunds = [
      passage(1, 'Returns and refunds', '## How to return\n\nGo to My orders and tap Refund to start a refund request.\n\n## When you get your money back\n\nRefunds reach your original payment method within 7 business days.\n\nShipping fees are refunded only when the whole order is returned.'),
      passage(2, 'Warranty', 'A warranty claim may end in a repair, a replacement or a refund.'),
    ];
    expect(await answer('How long do refunds take?', refunds)).toBe('Refunds reach your original payment method within 7 business days. [1]');
    expect(answerKind('How long do refunds take?')).toBe('duration');
    expect(answerKind('ค่าส่งไปเชียงใหม่เท่าไหร่')).toBe('amount');
    expect(answerKind('คืนเงินใช้เวลากี่วัน')).toBe('duration');
    expect(answerKind('Can I return underwear?')).toBeNull();
  });

  it('judges a follow-up by its standalone form and its own words', async () => {
    const shipping = [
      passage(1, 'Shipping', '| Zone | Fee |\n|---|---|\n| Bangkok | 40 THB |\n| Other provinces (e.g. Chiang Mai) | 60 THB |\n| Islands | 100 THB |'),
    ];
    const history: ChatTurn[] = [{ role: 'user', content: 'How much is shipping to Chiang Mai?' }, { role: 'assistant', content: 'Zone: Other provinces (e.g. Chiang Mai); Fee: 60 THB [1]' }];
    const searchQuery = condenseQuery('and to Bangkok?', history);
    const { text } = await collect({ query: 'and to Bangkok?', searchQuery, history, context: shipping, locale: 'en' });
    expect(text).toBe('Zone: Bangkok; Fee: 40 THB [1]');
  });

  it('cites only numbers present in the context', async () => {
    const renumbered = EN.map((p, i) => ({ ...p, n: [4, 7, 9][i]! }));
    const allowed = new Set([4, 7, 9]);
    for (const q of ['delivery time to provinces', 'reset password email', 'refund payment method', 'return items packaging', 'Pro plan price']) {
      const text = await answer(q, renumbered);
      expect(cited(text).length, q).toBeGreaterThan(0);
      for (const n of cited(text)) expect(allowed.has(n), `${q}: [${n}]`).toBe(true);
    }
  });

  it('gives a sentence found in two overlapping passages one number, the better-ranked one', async () => {
    const shared = 'Refunds are issued to the original payment method within 5 business days.';
    const context = [
      passage(1, 'Refunds', `Refund requests are reviewed by our team. ${shared}`),
      passage(2, 'Refunds', `${shared} Store credit is issued instantly.`),
    ];
    const text = await answer('When is the refund issued to my payment method?', context);
    expect(text.split(shared).length - 1).toBe(1);
    expect(text).toContain(`${shared} [1]`);
    expect(text).not.toMatch(/\[1\] \[2\]|\[2\] \[1\]/);
  });

  it('quotes markdown as plain words, table rows with their column names', async () => {
    const context = [
      passage(
        1,
        'Plans',
        '## Pricing\n\n| Plan | Price |\n|---|---|\n| **Pro** | 990 baht/month |\n| Team | 2,490 baht/month |\n\n```sh\npanya plans list\n```',
      ),
    ];
    const text = await answer('How much is the Pro plan?', context);
    expect(text).toBe('Plan: Pro; Price: 990 baht/month [1]');
  });

  it('keeps the answer short and in reading order', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Backup copy ${i + 1} of your workspace data is kept for ${i + 30} days in region ${i}.`).join(' ');
    const out = await answer('How long is workspace backup data kept?', [passage(1, 'Backups', text), passage(2, 'Backups', 'Backup data is kept encrypted at rest.')]);
    const quotes = cited(out);
    expect(quotes.length).toBeGreaterThanOrEqual(1);
    expect(quotes.length).toBeLessThanOrEqual(4);
    expect(out.replace(/\[\d+\]/g, '').split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(80);
    // Passage order, then position: every [1] comes before any [2].
    expect(quotes).toEqual([...quotes].sort((a, b) => a - b));
  });

  it('cuts a sentence longer than the whole budget', async () => {
    const filler = Array.from({ length: 150 }, (_, i) => `item${i}`).join(' ');
    const out = await answer('workspace backups', [passage(1, 'Backups', `Workspace backups include ${filler}.`)]);
    expect(out).toMatch(/^Workspace backups include item0 .*… \[1\]$/);
    expect(out.split(/\s+/).length).toBeLessThanOrEqual(81);
  });

  it('answers a how-to question with the whole ordered list of steps under the matching heading', async () => {
    const text = await answer('How do I refund a card payment?', POS);
    expect(text).toContain('1. Open Bills and find the bill.');
    expect(text).toContain('2. Tap Refund and choose the items.');
    expect(text).toContain('3. Enter the manager PIN and tap Confirm refund. [1]');
    expect(text.indexOf('1. Open')).toBeLessThan(text.indexOf('3. Enter'));
    expect(text).not.toContain('TIS-620');
  });

  it('quotes a troubleshooting section from its start when its heading states the problem', async () => {
    const text = await answer('Thai text prints as strange symbols', POS);
    expect(text).toMatch(/^The printer is using the wrong code page\. \[2\] Set Code page to TIS-620/);
  });

  it('answers a yes/no question with the sentence that says no, though it repeats the question', async () => {
    const text = await answer('Do I need a credit card for the trial?', POS);
    expect(text).toContain('No credit card is needed for the trial.');
  });

  it('never answers with a span that only restates the question', async () => {
    const text = await answer('ลูกค้าจ่ายพร้อมเพย์แล้วขอคืนเงิน ต้องทำยังไง', TH_POS, 'th');
    expect(text).toContain('ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น');
    expect(text).not.toMatch(/^เงินที่ลูกค้าจ่ายผ่านพร้อมเพย์ \[1\]$/);
  });

  it('keeps Thai era abbreviations and English initials inside the sentence, and drops footnote marks', async () => {
    const th = await answer('ภาพยนตร์ออกฉายปีไหน', TH_POS, 'th');
    expect(th).toContain('พ.ศ. 2540');
    const en = await answer('Who was the founder of the shop?', POS);
    expect(en).toContain('Franklin D. Roosevelt Jr. liked coffee.');
    expect(en).not.toMatch(/\(5\)|\[5\]|^5\)/);
  });

  it('matches a Thai name the segmenter cuts differently (นายกษิต → นา|ยก|ษิต)', async () => {
    // The question segments as นา|ยก|ษิ|ตดำ|รง, the passage as นา|ยก|ษิต … ดำรง.
    const text = await answer('นายกษิตดำรงตำแหน่งอะไร', TH_POS, 'th');
    expect(text).toContain('นายกษิต ภิรมย์ เคยดำรงตำแหน่งรัฐมนตรีว่าการกระทรวงการต่างประเทศ');
    expect(cited(text)).toEqual([2]);
  });

  it('refuses a Thai question about a name the passages never mention', async () => {
    const text = await answer('รองรับ Apple Pay ไหม', TH_POS, 'th');
    expect(text).toBe(NO_ANSWER.th);
  });

  it.each([
    ['How long do refunds take?', 'duration'],
    ['How big can a product photo be?', 'size'],
    ['What is the maximum file size for an import?', 'size'],
    ['รูปสินค้าใหญ่ได้แค่ไหน', 'size'],
    ['ไฟล์ขนาดเท่าไหร่', 'size'],
    // An interrogative decides before a topic noun that implies an amount.
    ['ราคาแพ็กเกจใหม่ใช้ตั้งแต่เมื่อไหร่', 'date'],
    ['When does the new price apply?', 'date'],
    ['ส่งของวันที่เท่าไหร่', 'date'],
    ['Since when is the new price valid?', 'date'],
    ['ราคาเท่าไหร่', 'amount'],
    ['How much is the Pro plan?', 'amount'],
    ['What does the Pro plan cost per year?', 'amount'],
    ['ใช้ได้กี่เครื่อง', 'count'],
    // "when" as a conjunction asks for no date.
    ['Can I still sell when the internet is down?', null],
    ['What happens when the trial ends?', null],
  ])('reads the kind of fact %s asks for as %s', (query, kind) => {
    expect(answerKind(query)).toBe(kind);
  });

  it('matches irregular English forms with their base ("hidden" / "Hide", "sell" / "sales")', async () => {
    const menu = [
      passage(1, 'Menu', '## Hide an item that is sold out\n\nSwipe the item to the left and tap **Sold out**. The item shows as sold out until the next day.'),
      passage(2, 'Working offline', 'The register keeps taking cash and card sales when the internet is down. Email receipts need internet.'),
      passage(3, 'Shifts', 'Close the shift at the end of the day. The report lists the cash counted.'),
    ];
    expect(await answer('How long does a sold out item stay hidden?', menu)).toContain('until the next day. [1]');
    expect(await answer('Can I still sell when the internet is down?', menu)).toContain('cash and card sales when the internet is down. [2]');
    // A name no passage mentions: the passages on selling are not about it.
    expect(await answer('Can I sell on GrabFood through the app?', menu)).toBe(NO_ANSWER.en);
    // In title case a capital names nothing.
    expect(await answer('Can I Still Sell When The Internet Is Down?', menu)).toContain('card sales when the internet is down. [2]');
  });

  it.each([
    ['hidden', 'hide'],
    ['sold', 'sell'],
    ['sales', 'sell'],
    ['paid', 'pay'],
    ['written', 'write'],
  ])('joins the irregular form %s to its base %s', (form, base) => {
    expect(baseStem(termOf(form)!)).toBe(termOf(base));
  });

  it('leaves forms that are also other words, and regular forms, as the stemmer made them', () => {
    expect(baseStem(termOf('left')!)).toBe('left');
    expect(baseStem(termOf('refunds')!)).toBe(termOf('refund'));
  });

  it('counts "30-day" as a duration, so a longer question still quotes it first', async () => {
    const trial = [passage(1, 'Plans', '## Free trial\n\nEvery new shop gets a 30-day free trial of Pro.\n\nPaying yearly gives 2 months free.')];
    const text = await answer('How long is the free trial?', trial);
    expect(text).toContain('30-day free trial');
    expect(text).not.toContain('Paying yearly');
  });

  it('answers a size question with the stated limit, and a when-question with the stated date', async () => {
    const th = [
      passage(1, 'เมนู', '## เพิ่มสินค้า\n\n1. เปิด **เมนู** แล้วกด **สินค้าใหม่**\n2. ใส่ชื่อ ราคา และหมวดหมู่\n3. เพิ่มรูปได้ตามต้องการ รูปต้องมีขนาดไม่เกิน 5 MB\n4. กด **บันทึก** สินค้าจะขึ้นในเครื่องขายทุกเครื่องภายใน 1 นาที'),
      passage(
        2,
        'แพ็กเกจและราคา',
        'ร้านใหม่ทุกร้านทดลองใช้แพ็กเกจ Pro ฟรี 30 วัน ไม่ต้องใช้บัตรเครดิต\n\nจ่ายรายปีฟรี 2 เดือน ราคารวมภาษีมูลค่าเพิ่มแล้ว ราคานี้ใช้ตั้งแต่วันที่ 1 ต.ค. พ.ศ. 2567 เป็นต้นไป',
      ),
    ];
    expect(await answer('รูปสินค้าใหญ่ได้แค่ไหน', th, 'th')).toContain('ขนาดไม่เกิน 5 MB');
    const when = await answer('ราคาแพ็กเกจใหม่ใช้ตั้งแต่เมื่อไหร่', th, 'th');
    expect(when).toContain('1 ต.ค. พ.ศ. 2567');
    expect(when).not.toContain('ทดลองใช้');
  });

  it('drops a further quote that is off-topic however near the best one', async () => {
    const text = await answer('How long does the money take to go back to the card?', POS);
    expect(text).toContain('7 business days');
    expect(text).not.toContain('30-day');
    expect(text).not.toContain('2015');
  });

  it('streams deltas then done with word-token usage', async () => {
    const query = 'How long does delivery to the provinces take?';
    const { text, events } = await collect({ query, context: EN, locale: 'en' });
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThanOrEqual(1);
    const last = events[events.length - 1]!;
    expect(last.type).toBe('done');
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    if (last.type !== 'done') throw new Error('unreachable');
    expect(last.usage.outputTokens).toBe(countWordTokens(text));
    expect(last.usage.inputTokens).toBe(countWordTokens(query) + EN.reduce((n, p) => n + countWordTokens(p.text), 0));
  });

  it('stops streaming when the signal aborts, without throwing', async () => {
    const controller = new AbortController();
    const events: GeneratorEvent[] = [];
    const gen = new ExtractiveGenerator();
    for await (const e of gen.generate({ query: 'How long does delivery to the provinces take?', context: EN, locale: 'en', signal: controller.signal })) {
      events.push(e);
      controller.abort();
    }
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('delta');

    const aborted = AbortSignal.abort();
    const none: GeneratorEvent[] = [];
    for await (const e of gen.generate({ query: 'reset password', context: EN, locale: 'en', signal: aborted })) none.push(e);
    expect(none).toEqual([]);
  });
});

describe('condense', () => {
  const shipping: ChatTurn[] = [
    { role: 'user', content: 'How long does shipping take to Bangkok?' },
    { role: 'assistant', content: 'Delivery within Bangkok takes 1–2 business days. [2]' },
  ];

  it('puts the topic of the last question in front of an elliptic follow-up', async () => {
    const out = await new ExtractiveGenerator().condense('and for provinces?', shipping);
    expect(out).toMatch(/shipping/i);
    expect(out).toMatch(/provinces/);
    expect(out.endsWith('and for provinces?')).toBe(true);
  });

  it('resolves "it" with the last question and the words the answer repeats', () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'Do you sell a plan for small businesses?' },
      { role: 'assistant', content: 'Yes: the Team plan suits small businesses. The Team plan includes 5 seats. [3]' },
    ];
    const out = condenseQuery('how much is it?', history);
    expect(out).toMatch(/\bbusinesses\b/);
    expect(out).toMatch(/\bteam\b/i);
    // Said once in the answer: not salient enough to carry over.
    expect(out).not.toMatch(/\bseats\b/);
    expect(out).not.toMatch(/\byes\b/i);
    expect(out.endsWith('how much is it?')).toBe(true);
  });

  it('leaves a standalone question alone', () => {
    expect(condenseQuery('How do I reset my password?', shipping)).toBe('How do I reset my password?');
    expect(condenseQuery('Is there a plan that includes SSO?', shipping)).toBe('Is there a plan that includes SSO?');
    expect(condenseQuery('and for provinces?', [])).toBe('and for provinces?');
  });

  it('works for Thai follow-ups', () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'ส่งของในกรุงเทพใช้เวลากี่วัน' },
      { role: 'assistant', content: 'การจัดส่งในกรุงเทพฯ ใช้เวลา 1-2 วันทำการ [2]' },
    ];
    const follow = condenseQuery('แล้วต่างจังหวัดล่ะ', history);
    expect(follow).toContain('ส่ง');
    expect(follow).toContain('เวลา');
    expect(follow).toContain('ต่างจังหวัด');
    // The question word of the earlier turn is not carried over.
    expect(follow).not.toContain('กี่');
    expect(condenseQuery('ราคาเท่าไหร่', history)).toContain('ส่ง');
    expect(condenseQuery('วิธีรีเซ็ตรหัสผ่านทำอย่างไร', history)).toBe('วิธีรีเซ็ตรหัสผ่านทำอย่างไร');
  });

  it('is deterministic', () => {
    expect(condenseQuery('and for provinces?', shipping)).toBe(condenseQuery('and for provinces?', shipping));
  });
});
