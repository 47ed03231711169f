import { describe, expect, it } from 'vitest';
import { GapClusterer, questionTerms } from '../src/insights/gap-clusters.js';

const at = '2026-11-01T00:00:00.000Z';

describe('GapClusterer', () => {
  it('groups English paraphrases and Thai paraphrases apart, largest first', () => {
    const c = new GapClusterer();
    const thai = ['วิธียกเลิกการสมัครสมาชิกรายปี', 'ยกเลิกสมาชิกรายปียังไง', 'อยากยกเลิกการสมัครสมาชิกรายปีค่ะ', 'สมาชิกรายปียกเลิกได้ไหม'];
    const english = ['How do I export my invoices to PDF?', 'Can I export invoices as PDF files?', 'export invoice pdf'];
    for (const question of [...english, ...thai, 'Do you support Apple Pay?']) c.add({ question, createdAt: at, reasons: ['refused'] });
    const top = c.top(10);
    expect(top.map((g) => g.count)).toEqual([4, 3, 1]);
    expect(top[0]!.examples).toEqual([thai[3], thai[2], thai[1]]);
    expect(top[1]!.terms).toEqual(expect.arrayContaining(['export', 'invoic', 'pdf']));
    expect(top[0]!.reasons.refused).toBe(4);
  });

  it('counts the previous period against the clusters found, opening none', () => {
    const c = new GapClusterer();
    c.add({ question: 'export invoices to pdf', createdAt: at, reasons: ['refused'] });
    c.countPrevious('how to export an invoice as pdf');
    c.countPrevious('opening hours on sunday');
    expect(c.size).toBe(1);
    expect(c.top(1)[0]!.previousCount).toBe(1);
  });

  it('keeps only topic words of a question', () => {
    expect(questionTerms('How can I export my invoices?')).toEqual(['export', 'invoic']);
    expect(questionTerms('ร้านค้ามีที่จอดรถไหมคะ')).not.toContain('ไหม');
  });
});
