/**
 * The one tokenizer used for every language, at ingest and at query time.
 *
 * Pipeline: NFKC + lowercase → Intl.Segmenter word segmentation (ICU; dictionary-based for Thai,
 * Lao, Khmer, Burmese, CJK, so scripts without spaces get real words) → keep word-like segments →
 * light normalisation (possessive 's, apostrophes, dotted abbreviations, digit-group commas) →
 * English stopword removal → Porter stemming for pure a–z words only (never touches numbers, codes
 * like "p53" or non-Latin scripts).
 *
 * Pure and synchronous: no I/O, deterministic for a given Node/ICU version. Note that the ICU
 * dictionary is part of Node; a Node upgrade can change Thai segmentation slightly, so an index
 * should record the Node (ICU) version it was built with (`TOKENIZER_ID` + `process.versions.icu`).
 */
import { stemmer } from 'stemmer';
import { ENGLISH_STOPWORDS } from './stopwords.js';

/** Bump when the output of `tokenize()` changes: stored, pre-segmented text must be rebuilt. */
export const TOKENIZER_ID = 'seg-porter-v2';

/**
 * What the stored index terms depend on: this tokenizer and the ICU data of the running Node
 * (a Node upgrade can segment Thai differently). Recorded with the index.
 */
export const TOKENIZER_VERSION = `${TOKENIZER_ID}/icu-${process.versions.icu ?? 'none'}`;

/** Tokens longer than this are junk for retrieval (base64, hashes, URLs glued together). */
const MAX_TOKEN_LENGTH = 64;

// One shared segmenter: construction is expensive, segment() is re-entrant. Locale undefined is
// deliberate: ICU applies its per-script dictionaries regardless of the locale.
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

const ASCII_WORD = /^[a-z]+$/;
const DOTTED_ABBREVIATION = /^\p{L}+(?:\.\p{L}+)+\.?$/u; // "u.s.a", "e.g"
const GROUPED_NUMBER = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/; // "10,000" → "10000"

/**
 * NFKC decomposes Thai SARA AM (ำ) into NIKHAHIT + SARA AA (ํา), and Lao's AM likewise. ICU's
 * dictionaries only know the composed letter, so decomposed text segments into fragments
 * ("จำนวน" → "จํา·นวน", "มหาวิทยาลัย" → "มหา·วิ·ทยา·ลัย" after a nearby ำ): recompose it.
 */
const DECOMPOSED_AM = /\u0e4d\u0e32|\u0ecd\u0eb2/g;
const recomposeAm = (pair: string) => (pair === '\u0e4d\u0e32' ? '\u0e33' : '\u0eb3');

/** Unicode normalisation applied to all text before segmentation (compatibility forms, case). */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(DECOMPOSED_AM, recomposeAm);
}

/**
 * Word-like segments of `text`, normalised but neither stopped nor stemmed. Used for display-side
 * features (the hash embedder's character n-grams, the trigram channel) where surface form matters.
 */
export function segmentWords(text: string): string[] {
  // A query is segmented for its terms and again for its fragments: the last answer is kept.
  if (text === lastSegmented.text) return [...lastSegmented.words];
  const words: string[] = [];
  for (const seg of segmenter.segment(normalizeText(text))) {
    if (!seg.isWordLike) continue;
    const word = cleanSegment(seg.segment);
    if (word.length > 0 && word.length <= MAX_TOKEN_LENGTH) words.push(word);
  }
  lastSegmented = { text, words };
  return [...words];
}

let lastSegmented: { text: string | null; words: readonly string[] } = { text: null, words: [] };

/**
 * Thai spelling noise that changes no word: MAI YAMOK (ๆ, "say it again") is written attached
 * ("เล็กๆ") or apart ("เล็ก ๆ"), and a tone mark typed twice ("ให้่") is still one tone.
 */
const THAI_REPEAT = /\u0e46/g;
const THAI_DOUBLED_TONE = /([\u0e48-\u0e4b])[\u0e48-\u0e4b]+/g;

/** Normalise one word-like segment; returns '' if nothing useful is left. */
function cleanSegment(segment: string): string {
  let w = segment;
  if (/[\u0e46-\u0e4b]/.test(w)) w = w.replace(THAI_REPEAT, '').replace(THAI_DOUBLED_TONE, '$1');
  if (w.includes("'") || w.includes('\u2019')) {
    w = w.replace(/['\u2019]s$/u, '').replace(/['\u2019]/gu, '');
  }
  if (w.includes('.') && DOTTED_ABBREVIATION.test(w)) w = w.replace(/\./g, '');
  else if (w.includes(',') && GROUPED_NUMBER.test(w)) w = w.replace(/,/g, '');
  return w;
}

/** Map a segmented word to its index term, or null if it is a stopword. */
export function termOf(word: string): string | null {
  if (ENGLISH_STOPWORDS.has(word)) return null;
  return ASCII_WORD.test(word) ? stemmer(word) : word;
}

/**
 * Index/query terms of `text`, in order, duplicates kept (term frequency matters). Store
 * `tokenize(text).join(' ')` in the lexical index; tokenize queries the same way.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of segmentWords(text)) {
    const term = termOf(word);
    if (term !== null && term.length > 0) terms.push(term);
  }
  return terms;
}

/**
 * Surface words of a query for the trigram channel: what the segmenter may have split badly
 * (codes, partial words, unfamiliar names, Thai compounds), matched as substrings instead.
 */
export function queryFragments(text: string): string[] {
  const seen = new Set<string>();
  for (const word of segmentWords(text)) {
    if ([...word].length >= 3 && !ENGLISH_STOPWORDS.has(word)) seen.add(word);
  }
  return [...seen];
}
