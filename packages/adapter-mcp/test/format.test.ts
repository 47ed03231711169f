import type { SearchResult } from '@panya/core';
import { describe, expect, it } from 'vitest';
import { listText, searchText } from '../src/format.js';

const hit = (n: number): SearchResult => ({
  chunkId: `chk_${n}`,
  documentId: `doc_${n}`,
  title: `Title ${n}`,
  headingPath: [],
  text: `Text ${n}`,
  score: 1,
  rank: n,
  lexicalRank: n,
  semanticRank: null,
  url: null,
});
const doc = (n: number) => ({ id: `doc_${n}`, title: `Doc ${n}`, url: null, status: 'indexed' as const, updatedAt: '2026-01-01T00:00:00.000Z' });

describe('tool result text', () => {
  it('counts in the singular for one and the plural otherwise', () => {
    expect(searchText('refunds', { results: [hit(1)], tookMs: 1 })).toMatch(/^1 chunk for "refunds", best first:/);
    expect(searchText('refunds', { results: [hit(1), hit(2)], tookMs: 1 })).toMatch(/^2 chunks for "refunds"/);
    expect(listText([doc(1)], null)).toMatch(/^1 document, newest first:/);
    expect(listText([doc(1)], null, 'refund')).toMatch(/^1 document with "refund" in the title, newest first:/);
    expect(listText([doc(1), doc(2)], null)).toMatch(/^2 documents, newest first:/);
  });
});
