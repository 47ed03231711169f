/**
 * Character trigrams of the scripts written without spaces (Thai, Lao, Burmese, Khmer), where
 * word boundaries come from a dictionary segmenter. The segmenter splits by context and knows few
 * transliterations: "ผู้นำ" is one word in a question and "ผู้ นำ" in a passage, "ฮาร์วาร์ด" becomes
 * "ฮาร์ วาร์ ด", and a translated question may spell a loanword another way ("ฟอซซิล", "ฟอสซิล").
 * Trigrams of each run of such words, joined back together, match across those differences; the
 * lexical index scores them beside the words at a low weight. Other scripts yield none.
 */

const UNSPACED = /^[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]+$/u;

/** Key prefix no index term can start with (terms are word-like segments), so grams never meet terms. */
const GRAM_PREFIX = '\u0001';

/**
 * The trigram keys of the runs of unspaced-script words in `words` (index terms, in order; any
 * other word ends a run), repeats kept: a run of n characters gives n − 2.
 */
export function unspacedTrigrams(words: Iterable<string>): string[] {
  const grams: string[] = [];
  let run: string[] = [];
  const flush = () => {
    for (let i = 0; i + 3 <= run.length; i++) grams.push(GRAM_PREFIX + run[i]! + run[i + 1]! + run[i + 2]!);
    run = [];
  };
  for (const word of words) {
    if (UNSPACED.test(word)) run.push(...word);
    else if (run.length > 0) flush();
  }
  flush();
  return grams;
}
