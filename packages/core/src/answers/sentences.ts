/**
 * Sentences of plain text for quoting: ICU's sentence rules with abbreviations glued back, then
 * Thai's clause groups; and the lengths an answer budget is counted in.
 */

// Fixed locale, as in the chunker: results must not depend on the machine's default locale.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const thaiWordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });
export const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const THAI = /[\u0E00-\u0E7F]/u;
const THAI_G = /[\u0E00-\u0E7F]/gu;
const LETTER_G = /\p{L}/gu;
// A space between two Thai characters separates clauses or sentences; not after ฯ (abbreviation
// mark, "กรุงเทพฯ ใช้เวลา") nor ๆ (repetition mark), which a space merely follows.
const THAI_SPACE = /(?<=[\u0E00-\u0E2E\u0E30-\u0E45\u0E47-\u0E7F])[ \t\u00A0]+(?=[\u0E00-\u0E7F])/u;
// ICU's sentence rules end a sentence at these abbreviations; glue the pieces back.
const ABBREVIATION_END = /(?:^|\s)(?:mr|mrs|ms|dr|prof|st|vs|etc|e\.g|i\.e|no|approx|incl|fig|ca|cf|inc|ltd|co|jr|sr)\.\s*$/iu;
// Thai writes no full stops: a dot after a Thai letter is an abbreviation (พ.ศ., ค.ศ., ต.ค., มี.ค.).
const THAI_ABBREVIATION_END = /[\u0E01-\u0E4E]\.\s*$/u;
// An initial ("Franklin D. Roosevelt") is a capital letter alone before its dot.
const INITIAL_END = /(?:^|[\s.])\p{Lu}\.\s*$/u;
// ICU ends a sentence inside "1998.(5) The…": the opening bracket belongs to what follows.
const OPEN_BRACKET_END = /[([]\s*$/u;

/**
 * Where one Thai sentence ends and the next begins inside a space-separated run. Thai puts the same
 * space between clauses of one sentence and between sentences, so a space alone ends nothing; a
 * boundary is confirmed by the segmenter's words around it: the next piece opens with a word that
 * starts a sentence (a condition, a next step, a contrast, a note) or repeats the opening words of
 * the sentence so far (parallel statements: "การจัดส่งใน… การจัดส่งไป…") or names its own subject
 * before an auxiliary ("สินค้าต้อง…", "เงินจะ…"), or the piece before ends
 * with a closing particle.
 */
const THAI_SENTENCE_STARTS = new Set([
  'หาก', 'ถ้า', 'ถ้าหาก', 'กรณี', 'ในกรณี', 'อย่างไรก็ตาม', 'นอกจากนี้', 'ทั้งนี้', 'จากนั้น', 'หลังจากนั้น', 'ต่อจากนั้น', 'ดังนั้น',
  'หมายเหตุ', 'โปรด', 'กรุณา', 'ขั้นตอน',
]);
/** Auxiliaries and modals: a piece whose second word is one ("สินค้า|ต้อง…", "เงิน|จะ…") opens with its own subject. */
const THAI_AUXILIARIES = new Set(['จะ', 'ต้อง', 'สามารถ', 'ควร', 'อาจ', 'ไม่', 'ยัง', 'จึง', 'ได้รับ']);
const THAI_CONDITIONS = new Set(['หาก', 'ถ้า', 'กรณี', 'ในกรณี', 'เมื่อ', 'ถ้าหาก', 'หากว่า']);
const THAI_SENTENCE_ENDS = /(?:ครับ|ค่ะ|คะ|จ้ะ|จ้า|ฯลฯ)$/u;
/** A clause group is not ended before it holds this many characters: a short lead belongs to what follows. */
const MIN_THAI_SENTENCE = 20;
const MIN_THAI_CLAUSE = 10;
/** Nor kept going past this many: a paragraph with no boundary still yields quotable pieces. */
const MAX_THAI_SENTENCE = 200;

export type ThaiGrouping = 'clause-groups' | 'every-space' | 'whole-run';

/** Sentences of a paragraph: ICU's sentence rules, then Thai's clause groups. */
export function splitSentences(text: string, thai: ThaiGrouping = 'clause-groups'): string[] {
  const raw: string[] = [];
  let start = -1;
  let prev = '';
  for (const { segment, index } of sentenceSegmenter.segment(text)) {
    const piece = segment.trim();
    if (!piece) continue;
    if (start >= 0 && glues(prev, piece)) {
      prev = text.slice(start, index + segment.length);
      raw[raw.length - 1] = prev.trim();
    } else {
      start = index;
      prev = segment;
      raw.push(piece);
    }
  }
  return raw.flatMap((s) => (THAI.test(s) ? splitThai(s, thai) : [s]));
}

function glues(prev: string, next: string): boolean {
  return (
    ABBREVIATION_END.test(prev) ||
    THAI_ABBREVIATION_END.test(prev) ||
    INITIAL_END.test(prev) ||
    OPEN_BRACKET_END.test(prev) ||
    // ICU splits after "e.g."; a following lowercase letter or a closing bracket also means the sentence goes on.
    /^[\p{Ll})\]]/u.test(next)
  );
}

/** Thai clause groups of one line: space-separated runs stay together unless a sentence boundary is confirmed. */
export function splitThai(text: string, grouping: ThaiGrouping = 'clause-groups'): string[] {
  const out: string[] = [];
  for (const line of text.split(/\s*\n\s*/u)) {
    const pieces = line.split(THAI_SPACE).map((p) => p.trim()).filter(Boolean);
    if (grouping === 'whole-run') {
      if (pieces.length > 0) out.push(pieces.join(' '));
      continue;
    }
    let group = '';
    let last = '';
    for (const p of pieces) {
      if (group && endsSentence(group, last, p, grouping)) {
        out.push(group);
        group = p;
      } else group = group ? `${group} ${p}` : p;
      last = p;
    }
    if (group) out.push(group);
  }
  return out;
}

function endsSentence(group: string, lastPiece: string, next: string, grouping: ThaiGrouping): boolean {
  const length = graphemeLength(group);
  if (grouping === 'every-space') return length >= MIN_THAI_SENTENCE;
  if (length >= MAX_THAI_SENTENCE) return true;
  // A condition ("เมื่อหมดช่วงทดลอง") goes on into the clause that says what then happens.
  const last = leadingWords(lastPiece, 1);
  if (last.length > 0 && THAI_CONDITIONS.has(last[0]!)) return false;
  const opening = leadingWords(next, 2);
  // A condition or a next step starts a sentence after any clause that is more than a word or two.
  if (length >= MIN_THAI_CLAUSE && opening.length > 0 && THAI_SENTENCE_STARTS.has(opening[0]!)) return true;
  if (length < MIN_THAI_SENTENCE) return false;
  if (THAI_CONDITIONS.has(opening[0] ?? '')) return true;
  if (THAI_SENTENCE_ENDS.test(group)) return true;
  if (opening.length === 0) return false;
  const start = leadingWords(group, 2);
  if (opening.length === 2 && THAI_AUXILIARIES.has(opening[1]!)) return true;
  // Parallel statements: the next piece opens as this sentence did.
  return opening.length === 2 && start.length === 2 && opening[0] === start[0] && opening[1] === start[1];
}

function leadingWords(text: string, n: number): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of thaiWordSegmenter.segment(text.slice(0, 40))) {
    if (!isWordLike) continue;
    out.push(segment);
    if (out.length === n) break;
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
