import { describe, expect, it } from 'vitest';
import { answerEvidence } from '../src/insights/insights.js';

const cited = [{ n: 1, documentId: 'doc_1', chunkId: 'chk_1', title: 'Refunds', url: null, snippet: '' }];

describe('answerEvidence', () => {
  it.each([
    ['no citation: refused', 'I could not find this in the knowledge base.', [], { outcome: 'refused', groundedSentences: 0, sentences: 1 }],
    ['every sentence cited: answered', 'Refunds are issued within 14 days [1]. Contact support with your order number [1].', cited, { outcome: 'answered', groundedSentences: 2, sentences: 2 }],
    ['Thai clauses, each cited', 'คืนเงินภายใน 14 วัน [1]\nติดต่อฝ่ายบริการลูกค้า [1]', cited, { outcome: 'answered', groundedSentences: 2, sentences: 2 }],
    ['most sentences uncited: low evidence', 'Refunds take 14 days [1]. We think cash works too. Ask in store. Or call us.', cited, { outcome: 'low_evidence', groundedSentences: 1, sentences: 4 }],
    ['half cited: answered', 'Refunds take 14 days [1]. Cash is refunded in store.', cited, { outcome: 'answered', groundedSentences: 1, sentences: 2 }],
  ] as const)('%s', (_name, text, citations, evidence) => {
    expect(answerEvidence(text, citations)).toEqual(evidence);
  });
});
