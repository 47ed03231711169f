/**
 * Sentences of plain text for quoting: ICU's sentence rules with abbreviations glued back, then
 * Thai's space-delimited sentences; and the lengths an answer budget is counted in.
 */

// Fixed locale, as in the chunker: results must not depend on the machine's default locale.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
export const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const THAI = /[\u0E00-\u0E7F]/u;
const THAI_G = /[\u0E00-\u0E7F]/gu;
const LETTER_G = /\p{L}/gu;
// A space between two Thai characters is where Thai writers end a sentence or clause; not after
// ฯ (abbreviation mark, "กรุงเทพฯ ใช้เวลา") nor ๆ (repetition mark), which a space merely follows.
const THAI_BREAK = /(?<=[\u0E00-\u0E2E\u0E30-\u0E45\u0E47-\u0E7F])[ \t\u00A0]+(?=[\u0E00-\u0E7F])|\s*\n\s*/u;
/** Thai pieces shorter than this are clauses, not sentences: kept with the next piece. */
const MIN_THAI_SENTENCE = 20;
// ICU's sentence rules end a sentence at these abbreviations; glue the pieces back.
const ABBREVIATION_END = /(?:^|\s)(?:mr|mrs|ms|dr|prof|st|vs|etc|e\.g|i\.e|no|approx|incl|fig|ca|cf)\.\s*$/iu;

/** Sentences of a paragraph: ICU's sentence rules, then Thai's space-delimited sentences. */
export function splitSentences(text: string): string[] {
  const raw: string[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    const piece = segment.trim();
    if (!piece) continue;
    const prev = raw[raw.length - 1];
    // ICU splits after "e.g." and "Dr."; a following lowercase letter also means the sentence goes on.
    if (prev !== undefined && (ABBREVIATION_END.test(prev) || /^\p{Ll}/u.test(piece))) raw[raw.length - 1] = `${prev} ${piece}`;
    else raw.push(piece);
  }
  return raw.flatMap((s) => (THAI.test(s) ? splitThai(s) : [s]));
}

function splitThai(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const piece of text.split(THAI_BREAK)) {
    const p = piece.trim();
    if (!p) continue;
    pending = pending ? `${pending} ${p}` : p;
    if (graphemeLength(pending) >= MIN_THAI_SENTENCE) {
      out.push(pending);
      pending = '';
    }
  }
  if (pending) {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1]} ${pending}`;
    else out.push(pending);
  }
  return out;
}

export function isThai(text: string): boolean {
  const letters = text.match(LETTER_G)?.length ?? 0;
  const thai = text.match(THAI_G)?.length ?? 0;
  return letters > 0 && thai / letters >= 0.3;
}

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of graphemeSegmenter.segment(text)) n++;
  return n;
}

export function wordCount(text: string): number {
  return text.split(/\s+/u).filter(Boolean).length;
}
