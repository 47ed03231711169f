/**
 * The default generator: no model. It quotes the passage sentences that best support the query
 * and cites each as `[n]`; when no sentence covers enough of the query it says so and cites
 * nothing. Deterministic, so answers are reproducible and testable.
 */
import { countWordTokens } from '../knowledge/chunker.js';
import { NO_ANSWER, OTHER_LANGUAGE_LEAD, type Locale } from '../messages.js';
import type { ChatTurn, GenerateRequest, Generator, GeneratorContext, GeneratorEvent } from './ports/generator.js';
import { queryContentWords, THAI_FUNCTION_WORDS } from '../text/query.js';
import { baseStem } from '../text/english-forms.js';
import { normalizeText, segmentWords, termOf } from '../text/tokenizer.js';
import { condenseQuery } from './condense.js';
import { markdownUnits } from './markdown-text.js';
import { graphemeLength, graphemeSegmenter, isThai, splitSentences, wordCount, type ThaiGrouping } from './sentences.js';

export { NO_ANSWER, OTHER_LANGUAGE_LEAD, condenseQuery };

const LATIN_TERM = /^[a-z]+$/;

/** Score bonus of a follow-up's own words, on top of its standalone form's. */
const ASKED_WEIGHT = 0.25;

/** Score bonus of a sentence stating the kind of fact asked for (a duration for "how long"). */
const KIND_BONUS = 0.15;

export interface ExtractiveGeneratorOptions {
  /** Share of the query's weighted terms the best sentence must cover (with its headings and neighbours). Default 0.4. */
  minCoverage?: number;
  /** Most sentences quoted. Default 4. */
  maxSentences?: number;
  /** Answer budget for Latin-script text, in words. Default 80. */
  maxWords?: number;
  /** Answer budget for Thai text, in characters (Thai has no spaces between words). Default 300. */
  maxThaiChars?: number;
  /**
   * Least share of the query's weighted terms a further quote must cover by itself; below it a
   * sentence is off-topic however close it sits. Default 0.5 (measured on the answer benchmark).
   */
  minRelevance?: number;
  /**
   * Least share of the best sentence's score that a sentence stating the asked-for kind of fact (a
   * date for "when", a limit for "how big") needs to be quoted first in its place. Default 0.6
   * (measured on the answer benchmark).
   */
  kindSwap?: number;
  /** How Thai runs are cut into quotable units (default `clause-groups`); the others are measured against it. */
  thaiGrouping?: ThaiGrouping;
}

/**
 * Share of the query's weighted terms a section's own heading must cover for the section to be the
 * answer ("Thai text prints as strange symbols" under that heading): the section is then quoted
 * from its start. Measured on the answer benchmark (docs/decisions.md).
 */
const SECTION_MATCH = 0.6;

/** A how-to answer quotes a whole list of steps: it may use this many times the ordinary budget. */
const STEPS_BUDGET = 2;
/** Most steps quoted. */
const MAX_STEPS = 12;

/** "How do I…", "ทำยังไง", "ขั้นตอน": the question asks for a procedure, answered with its whole list of steps. */
const HOW_TO = /\bhow\s+(?:do|can|should|would|to|does)\b|\bsteps?\b|\bset\s*up\b|\bwhat\s+should\s+i\s+do\b|ทำยังไง|ทำอย่างไร|ต้องทำ|(?<!เป็น|กัน)(?:ยังไง|อย่างไร)|วิธี|ขั้นตอน/iu;
/** Terms that only frame a how-to question ("ต้องทำยังไง" = what must one do). */
const HOW_TO_FRAME = new Set(['ต้อง', 'ทำ', 'ยัง', 'ไง', 'ขั้นตอน', 'step', 'steps', 'อย่าง', 'ไร']);

/**
 * What kind of fact a question asks for. The question frame ("how long", "เท่าไหร่") is dropped
 * from the topic terms, so without this every sentence naming the topic would look like an answer
 * ("Original shipping fees are refunded…" for "how long do refunds take?").
 */
type AnswerKind = 'duration' | 'amount' | 'count' | 'date' | 'size';
/**
 * Question frames, the interrogatives first: "ราคาใหม่ใช้ตั้งแต่เมื่อไหร่" asks when, though it
 * names a price, and "วันที่เท่าไหร่" asks for a date, though "เท่าไหร่" alone asks how much. A
 * topic noun that implies an amount ("price", "ค่าส่ง") decides only when no interrogative does.
 */
const ASKS: [AnswerKind, RegExp][] = [
  ['duration', /\bhow\s+(?:long|soon|quickly)\b|\bwhen\s+will\b|กี่วัน|กี่ชั่วโมง|กี่นาที|นานแค่ไหน|นานไหม|ใช้เวลา/iu],
  ['date', /\b(?:since|until|till)\s+when\b|\bwhat\s+(?:date|day|year|month)\b|\bfrom\s+when\b|วันที่เท่าไ(?:หร่|ร)|วันไหน|ปีไหน|เดือนไหน/iu],
  // "How big…", "ใหญ่ได้แค่ไหน" (how big can it be), "ขนาดเท่าไหร่" (what size).
  ['size', /\bhow\s+(?:big|large|small|heavy|wide|tall)\b|\bwhat\s+size\b|\b(?:size|file[- ]size)\s+limit\b|\bmax(?:imum)?\s+(?:file\s+)?size\b|(?:ใหญ่|ขนาด|ยาว|กว้าง|หนัก|เล็ก)(?:สุด|ที่สุด)?(?:ได้)?(?:แค่|ประมาณ)?\s*(?:แค่ไหน|ไหน|เท่าไ(?:หร่|ร)|เท่าใด)|ขนาดสูงสุด|ใหญ่สุด/iu],
  ['amount', /\bhow\s+much\b|เท่าไหร่|เท่าไร|เท่าใด|กี่บาท/iu],
  ['count', /\bhow\s+many\b|กี่/iu],
  // "When" asks for a date where it opens the question or an inverted clause ("when does…"),
  // not as a conjunction ("can I sell when the internet is down?").
  ['date', /^\W*when\b|\bwhen\s+(?:is|are|was|were|do|does|did|can|could|should|would|has|have)\b|เมื่อไหร่|เมื่อไร|เมื่อใด/iu],
  ['amount', /\b(?:cost|costs|price|prices|fee|fees|charge|charges)\b|ราคา|ค่าส่ง|ค่าจัดส่ง|ค่าธรรมเนียม|ค่าบริการ/iu],
];
/** A quantity with a unit of size, or a stated limit ("up to 500", "ไม่เกิน 5 MB"). */
const SIZE = /\d[\d,.]*\s*(?:[kmgt]b|bytes?|px|pixels?|mm|cm|km|m|metres?|meters?|kg|g|inch(?:es)?|characters?|มม\.?|ซม\.?|เมตร|กิโลกรัม|กก\.|กรัม|นิ้ว|พิกเซล|ตัวอักษร)(?![a-z])|(?:\bup\s+to|\bat\s+most|\bno\s+more\s+than|\b(?:smaller|larger|less|more)\s+than|ไม่เกิน|สูงสุด|ได้ถึง)\s*\d/iu;
const AMOUNT = /\d[\d,.]*\s*(?:thb|baht|บาท)|฿\s*\d/iu;
const GIVES: Record<AnswerKind, RegExp> = {
  duration: /\d\s*(?:[–-]\s*\d+\s*)?[–-]?(?:business\s+|working\s+)?(?:days?|hours?|minutes?|weeks?|months?|years?)\b|\d\s*(?:[–-]\s*\d+\s*)?(?:วัน|ชั่วโมง|นาที|สัปดาห์|เดือน|ปี)|\b(?:same|next)[- ]day\b|ภายในวัน|วันถัดไป|วันรุ่งขึ้น/iu,
  amount: AMOUNT,
  count: /\d/u,
  // A year, a month with a day, a Thai month abbreviation.
  date: /\b(?:1[89]|2[05])\d\d\b|[พค]\.ศ\.|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|(?:ม|ก|มี|เม|พ|มิ|ส|ต|ธ)\.[คพย]\./iu,
  // "How big a difference is allowed?" is answered by an amount too.
  size: new RegExp(`${SIZE.source}|${AMOUNT.source}`, 'iu'),
};

const ASKS_FREE = /\b(?:free|fee|fees|charge|charges|pay)\b|ฟรี|ค่าธรรมเนียม|เสียเงิน|ต้องจ่าย/iu;
const FREE = /\bfree\b|ฟรี|ไม่มีค่า|ไม่เสีย/iu;

/**
 * Index terms that only frame a question of that kind: "how long does it stay hidden" asks how
 * long it is hidden; "รูปใหญ่ได้แค่ไหน" (how big can a photo be) asks for a photo's size limit.
 */
const FRAME_TERMS: Record<AnswerKind, ReadonlySet<string>> = {
  duration: new Set(['ใช้เวลา', 'เวลา', 'นาน', 'กี่วัน', 'stai', 'remain', 'last']),
  amount: new Set(['ราคา', 'ค่าใช้จ่าย', 'ค่า']),
  count: new Set(),
  date: new Set(['วัน', 'ตั้งแต่', 'date']),
  size: new Set(['ใหญ่', 'ขนาด', 'ยาว', 'กว้าง', 'หนัก', 'เล็ก', 'สุด', 'size', 'larg', 'big', 'small', 'heavi', 'max', 'maximum']),
};

/** The kind of fact the question asks for, if its frame says so. */
export function answerKind(query: string): AnswerKind | null {
  return ASKS.find(([, re]) => re.test(query))?.[0] ?? null;
}

interface Sentence {
  /** Index of the passage in the context (its rank). */
  passage: number;
  n: number;
  /** Position within the passage, for reading order and neighbours. */
  pos: number;
  /** Block (paragraph, list item, table row) it came from: a follow-on sentence must share it. */
  block: number;
  /** The list (per passage) this sentence is an item of. */
  list: number | null;
  /** Its section: passage and in-passage headings. */
  section: string;
  /** Terms of the innermost heading above it (the chunk's heading path, else the title, when the passage has none). */
  sectionTerms: Set<string>;
  text: string;
  terms: Set<string>;
  /** Terms of the title, heading path and in-passage headings above the sentence. */
  headingTerms: Set<string>;
  thai: boolean;
  /** Share of the answer budget this sentence takes. */
  cost: number;
  ownCoverage: number;
  coverage: number;
  score: number;
  /** The sentence states a fact of the kind the question asks for. */
  gives: boolean;
}

export class ExtractiveGenerator implements Generator {
  readonly specificationVersion = 'v1';
  readonly id = 'extractive-v1';
  private readonly minCoverage: number;
  private readonly maxSentences: number;
  private readonly maxWords: number;
  private readonly maxThaiChars: number;
  private readonly minRelevance: number;
  private readonly thaiGrouping: ThaiGrouping;
  private readonly kindSwap: number;

  constructor(options: ExtractiveGeneratorOptions = {}) {
    this.minCoverage = options.minCoverage ?? 0.4;
    this.maxSentences = Math.max(1, options.maxSentences ?? 4);
    this.maxWords = Math.max(1, options.maxWords ?? 80);
    this.maxThaiChars = Math.max(1, options.maxThaiChars ?? 300);
    this.minRelevance = options.minRelevance ?? 0.5;
    this.thaiGrouping = options.thaiGrouping ?? 'clause-groups';
    this.kindSwap = options.kindSwap ?? 0.6;
  }

  async *generate(request: GenerateRequest): AsyncIterable<GeneratorEvent> {
    const { signal } = request;
    // A follow-up is judged by its standalone form ("shipping Chiang Mai and to Bangkok?"), which found the context.
    const pieces = this.answer(request.searchQuery ?? request.query, request.context, request.locale, request.query);
    let output = '';
    for (const piece of pieces) {
      if (signal?.aborted) return;
      output += piece;
      yield { type: 'delta', text: piece };
    }
    if (signal?.aborted) return;
    const inputTokens = countWordTokens(request.query) + request.context.reduce((sum, c) => sum + countWordTokens(c.text), 0);
    yield { type: 'done', usage: { inputTokens, outputTokens: countWordTokens(output) } };
  }

  /**
   * The answer as stream pieces: one per quoted sentence, or the no-answer message. `query` names
   * the topic; `asked` (default: the same) is the user's own wording, whose frame says what kind
   * of fact is wanted.
   */
  answer(query: string, context: readonly GeneratorContext[], locale: Locale, asked: string = query): string[] {
    const noAnswer = [NO_ANSWER[locale] ?? NO_ANSWER.en];
    // A follow-up ("and if I paid cash on delivery?") asks for the kind of fact its conversation asked for.
    const kind = answerKind(asked) ?? (asked === query ? null : answerKind(query.replace(/(?<=[\u0E00-\u0E7F])\s+(?=[\u0E00-\u0E7F])/gu, '')));
    const howTo = HOW_TO.test(asked);
    // "ใช้เวลา" (takes time), "ราคา" (price), "ต้องทำยังไง": the frame of the question, not its topic.
    const isTopic = (t: string) => (!kind || !FRAME_TERMS[kind].has(t)) && (!howTo || !HOW_TO_FRAME.has(t));
    const queryTerms = queryContentTerms(query).filter(isTopic);
    if (queryTerms.length === 0 || context.length === 0) return noAnswer;

    const sentences = this.candidates(context);
    if (sentences.length === 0) return noAnswer;
    matchCompounds(sentences, asked === query ? [query] : [query, asked]);
    // Latin words in a Thai question, and capitalised words inside an English one, are names (a
    // brand, a product, a plan): a name the context never mentions means it is not about it.
    const names = isThai(asked) ? queryTerms.filter((t) => LATIN_TERM.test(t)) : namedTerms(asked).filter((t) => queryTerms.includes(t));
    if (names.some((t) => !sentences.some((s) => matchIn(t, s.terms) > 0 || matchIn(t, s.headingTerms) > 0))) return noAnswer;
    scoreSentences(sentences, queryTerms, context.length);
    // A follow-up's own words ("and to Bangkok?") decide among the passages its standalone form found,
    // and may carry the answer alone: the words taken from earlier turns are only context.
    const askedTerms = asked === query ? [] : queryContentTerms(asked).filter(isTopic);
    if (askedTerms.length > 0) {
      const byAsked = sentences.map((s) => ({ ...s }));
      scoreSentences(byAsked, askedTerms, context.length);
      sentences.forEach((s, i) => {
        s.score += ASKED_WEIGHT * byAsked[i]!.ownCoverage;
        s.coverage = Math.max(s.coverage, byAsked[i]!.coverage);
      });
    }
    phraseBonus(sentences, asked);
    if (kind) {
      for (const s of sentences) {
        // "Free" answers "is there a fee?", not "how much is the Pro plan?" (the trial is free).
        s.gives = GIVES[kind].test(s.text) || (kind === 'amount' && ASKS_FREE.test(asked) && FREE.test(s.text));
        if (s.gives) s.score += KIND_BONUS;
      }
    }

    // A sentence made only of the question's own words restates it ("เงินที่ลูกค้าจ่ายผ่านพร้อมเพย์"): never an answer.
    const asking = new Set([...contentTerms(query), ...contentTerms(asked)]);
    // One word of its own (a preposition the question left out: "ผ่าน", "via") does not make it an answer.
    const negated = NEGATION.test(asked);
    const restates = (s: Sentence) => {
      // "No credit card is needed for the trial" answers "do I need a credit card for the trial?".
      if (!negated && NEGATION.test(s.text)) return false;
      const own = [...s.terms].filter((t) => !asking.has(t) && !THAI_FUNCTION_WORDS.has(t));
      return own.length === 0 || (own.length === 1 && s.terms.size >= 4 && !/\d/u.test(own[0]!));
    };
    let ranked = sentences
      .filter((s) => s.ownCoverage > 0 && !restates(s))
      .sort((a, b) => b.score - a.score || a.passage - b.passage || a.pos - b.pos);
    // Answer in the requested language when a passage in it answers well enough.
    const inLocale = (s: Sentence) => s.thai === (locale === 'th');
    if (ranked.some((s) => inLocale(s) && s.coverage >= this.minCoverage)) ranked = ranked.filter(inLocale);
    // A sentence that states no date cannot answer "when…?": one that states it goes first when it
    // covers the question well enough and scores nearly as well (kindSwap).
    if (kind && ranked[0] && !ranked[0].gives) {
      const top = ranked[0];
      const stating = ranked.find((s) => s.gives && s.coverage >= this.minCoverage && s.score >= this.kindSwap * top.score);
      if (stating) ranked = [stating, ...ranked.filter((s) => s !== stating)];
    }
    const best = ranked[0];
    if (!best || best.coverage < this.minCoverage) return noAnswer;
    // Once the best quote states the asked-for fact, further quotes must state one too; once it
    // matches a follow-up's own words, they must match them too ("Bangkok", not Chiang Mai again).
    const asks = (s: Sentence) => askedTerms.some((q) => matchIn(q, s.terms) > 0);
    const onTopic = (s: Sentence) => (!kind || !best.gives || s.gives) && (!asks(best) || asks(s));

    const selected: Sentence[] = [best];
    let used = Math.min(best.cost, 1);
    const fits = (s: Sentence) => used + s.cost <= 1 && !selected.some((t) => nearDuplicate(t, s));
    const take = (s: Sentence) => {
      selected.push(s);
      used += s.cost;
    };
    // A further quote must add a query term the quotes so far lack: otherwise it merely names the
    // same topic again (a warranty's refund for a refund-policy question, every row of a fee table).
    const covered = new Set(queryTerms.filter((q) => matchIn(q, best.terms) > 0 || matchIn(q, best.headingTerms) > 0));
    const adds = (s: Sentence) => queryTerms.some((q) => !covered.has(q) && matchIn(q, s.terms) > 0);
    // Further quotes must be nearly as good and match the query on their own, not only through a neighbour.
    const floor = Math.max(0.6 * best.score, 0.25);
    const relevant = Math.max(0.75 * best.ownCoverage, this.minRelevance);

    const lead = inLocale(best) ? [] : [`${OTHER_LANGUAGE_LEAD[locale]} `];
    // A section whose own heading states the question is the answer, read from its start.
    if (howTo || !kind || !best.gives) {
      const section = matchingSection(ranked, sentences, queryTerms, context.length);
      if (section) {
        const steps = howTo ? section.filter((s) => s.list !== null && s.list === section.find((t) => t.list !== null)?.list) : [];
        if (steps.length >= 2) {
          const intro = section.filter((s) => s.pos < steps[0]!.pos).slice(-1)[0];
          return this.quoteSteps(intro ?? steps[0]!, steps, lead);
        }
        return this.quote(section, lead);
      }
    }
    const steps = howTo ? stepsFor(best, sentences) : [];
    if (steps.length > 0) return this.quoteSteps(best, steps, lead);

    for (const s of ranked.slice(1)) {
      if (selected.length >= this.maxSentences || s.score < floor) break;
      if (s.ownCoverage >= relevant && onTopic(s) && adds(s) && fits(s)) {
        take(s);
        for (const q of queryTerms) if (matchIn(q, s.terms) > 0) covered.add(q);
      }
    }
    // A lone quote reads better with the sentence that continues it in the same paragraph or item,
    // when that sentence is still about the question.
    if (selected.length === 1) {
      // …and with the one that opens it, when that one is about the question too.
      const prev = sentences.find((s) => s.passage === best.passage && s.pos === best.pos - 1 && s.block === best.block);
      if (prev && !restates(prev) && prev.ownCoverage >= 0.5 * best.ownCoverage && onTopic(prev) && fits(prev)) take(prev);
      const next = sentences.find((s) => s.passage === best.passage && s.pos === best.pos + 1 && s.block === best.block);
      if (next && !restates(next) && (next.ownCoverage > 0 || (kind !== null && next.gives)) && onTopic(next) && fits(next)) take(next);
    }

    selected.sort((a, b) => a.passage - b.passage || a.pos - b.pos);
    return [
      ...lead,
      ...selected.map((s, i) => {
        const text = s.cost > 1 ? this.clip(s) : s.text;
        return `${i === 0 ? '' : ' '}${text} [${s.n}]`;
      }),
    ];
  }

  /** Sentences in reading order from the first, as many as the budget holds (the first always, clipped if need be). */
  private quote(sentences: readonly Sentence[], lead: string[]): string[] {
    const out = [...lead];
    let used = 0;
    for (const s of sentences.slice(0, this.maxSentences)) {
      if (out.length > lead.length && used + s.cost > 1) break;
      used += s.cost;
      out.push(`${out.length > lead.length ? ' ' : ''}${s.cost > 1 ? this.clip(s) : s.text} [${s.n}]`);
    }
    return out;
  }

  /**
   * A how-to answer: the sentence that introduces the steps (when it is not a step itself), then
   * every step in order, numbered, the citation after the last; within STEPS_BUDGET times the budget.
   */
  private quoteSteps(best: Sentence, steps: Sentence[], lead: string[]): string[] {
    const out = [...lead];
    let used = 0;
    if (best.list === null) {
      out.push(`${best.cost > 1 ? this.clip(best) : best.text} [${best.n}]`);
      used += Math.min(best.cost, 1);
    }
    const ordered = steps.slice(0, MAX_STEPS);
    let k = 0;
    for (const step of ordered) {
      if (k > 0 && used + step.cost > STEPS_BUDGET) break;
      used += step.cost;
      out.push(`${out.length > lead.length || k > 0 ? '\n' : ''}${++k}. ${step.cost > 1 ? this.clip(step) : step.text}`);
    }
    if (k < steps.length) out.push(' …');
    out.push(` [${steps[0]!.n}]`);
    return out;
  }

  /** Quotable sentences of all passages, each sentence once (chunks overlap), with its best-ranked passage. */
  private candidates(context: readonly GeneratorContext[]): Sentence[] {
    const seen = new Set<string>();
    const out: Sentence[] = [];
    context.forEach((passage, rank) => {
      const outer = [passage.title, ...passage.headingPath].flatMap((h) => contentTerms(h));
      const outerSection = passage.headingPath.at(-1) ?? passage.title;
      let pos = 0;
      for (const unit of markdownUnits(passage.text)) {
        const headingTerms = new Set([...outer, ...unit.headings.flatMap((h) => contentTerms(h))]);
        // A list item is one step: quoted whole.
        const texts = unit.atomic || unit.list ? [unit.text] : splitSentences(unit.text, this.thaiGrouping);
        for (const text of texts) {
          const words = segmentWords(text);
          const key = words.join(' ');
          if (words.length === 0 || seen.has(key)) continue;
          seen.add(key);
          const thai = isThai(text);
          out.push({
            passage: rank,
            n: passage.n,
            pos: pos++,
            block: unit.block,
            list: unit.list ? unit.list.id : null,
            section: `${rank}\u0000${unit.headings.join('\u0000')}`,
            sectionTerms: new Set(contentTerms(unit.headings.at(-1) ?? outerSection)),
            text,
            terms: new Set(contentTerms(text)),
            headingTerms,
            thai,
            cost: thai ? graphemeLength(text) / this.maxThaiChars : wordCount(text) / this.maxWords,
            ownCoverage: 0,
            coverage: 0,
            score: 0,
            gives: false,
          });
        }
      }
    });
    return out;
  }

  /** Cuts an over-long sentence (a paragraph without punctuation, a long table row) to the budget. */
  private clip(s: Sentence): string {
    if (!s.thai) {
      const words = s.text.split(/\s+/);
      return `${words.slice(0, this.maxWords).join(' ')}…`;
    }
    let end = 0;
    let length = 0;
    for (const { segment, index } of graphemeSegmenter.segment(s.text)) {
      if (++length > this.maxThaiChars) break;
      if (/\s/u.test(segment)) end = index;
    }
    // No space late enough to cut at: cut at the budget itself.
    if (end < (this.maxThaiChars * 2) / 3) end = [...s.text].slice(0, this.maxThaiChars).join('').length;
    return `${s.text.slice(0, end).trimEnd()}…`;
  }

  /**
   * Model-free follow-up rewrite. A short query, one that starts like a continuation ("and for…",
   * "แล้ว…") or one that refers back ("is it…") gets the salient words of the last user turn
   * (and, for references, a few from the last answer) put in front; anything else is returned as is.
   */
  async condense(query: string, history: ChatTurn[]): Promise<string> {
    return condenseQuery(query, history);
  }
}

/**
 * The section whose own heading covers the most of the query (at least SECTION_MATCH), among the
 * sections of the sentences still in the running; its sentences in reading order.
 */
function matchingSection(ranked: readonly Sentence[], all: readonly Sentence[], queryTerms: readonly string[], passages: number): Sentence[] | null {
  let best: { key: string; coverage: number } | null = null;
  const seen = new Set<string>();
  for (const s of ranked) {
    if (seen.has(s.section)) continue;
    seen.add(s.section);
    // Unweighted: the topic word of an article is in most of its sentences, so IDF would discount
    // exactly the word that tells "add a staff member" from "add a menu item".
    // Exact terms only: "cashier" is no "cash payment".
    const coverage = queryTerms.filter((q) => s.sectionTerms.has(q)).length / queryTerms.length;
    // Retrieval's rank breaks near-ties, as it does for sentences.
    const rated = coverage + 0.1 * (1 - s.passage / passages);
    if (coverage >= SECTION_MATCH && (!best || rated > best.coverage)) best = { key: s.section, coverage: rated };
  }
  if (!best) return null;
  return all.filter((s) => s.section === best.key).sort((a, b) => a.pos - b.pos);
}

/**
 * The list of steps a how-to answer quotes: the list the best sentence is an item of, or the first
 * list that follows it in the same section of its passage, with at most one sentence between.
 */
function stepsFor(best: Sentence, sentences: readonly Sentence[]): Sentence[] {
  const passage = sentences.filter((s) => s.passage === best.passage);
  let list = best.list;
  if (list === null) {
    const after = passage.filter((s) => s.pos > best.pos && s.pos <= best.pos + 2 && s.section === best.section);
    list = after.find((s) => s.list !== null)?.list ?? null;
  }
  if (list === null) return [];
  const steps = passage.filter((s) => s.list === list).sort((a, b) => a.pos - b.pos);
  // One item is no procedure.
  return steps.length >= 2 ? steps : [];
}

/**
 * Thai names and compounds the segmenter cuts differently in the question and in the text
 * (นายกษิต → นา|ยก|ษิต): adjacent Thai words of the question found together in a sentence count
 * as found, each of their terms added to the sentence's.
 */
function matchCompounds(sentences: Sentence[], questions: readonly string[]): void {
  const compounds: { text: string; terms: string[] }[] = [];
  for (const q of questions) {
    const words = segmentWords(q);
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 2; j <= Math.min(words.length, i + 4); j++) {
        const run = words.slice(i, j);
        if (!run.every((w) => THAI_WORD.test(w))) break;
        const text = run.join('');
        if (graphemeLength(text) < 4) continue;
        compounds.push({ text, terms: run.map((w) => termOf(w)).filter((t): t is string => t !== null) });
      }
    }
  }
  if (compounds.length === 0) return;
  for (const s of sentences) {
    if (!s.thai) continue;
    const text = normalizeText(s.text).replace(/\s+/gu, '');
    for (const c of compounds) if (text.includes(c.text)) for (const t of c.terms) s.terms.add(t);
  }
}

/** A sentence that says no: it answers a yes/no question even when it repeats the question's words. */
const NEGATION = /\b(?:no|not|never|cannot|can't|don't|doesn't|isn't|aren't|won't)\b|ไม่|ห้าม|ยังไม่/iu;

const THAI_WORD = /^[\u0E00-\u0E7F]+$/u;

/**
 * Terms of the capitalised words of an English question that do not open a sentence ("GrabFood",
 * "Windows", "Apple Pay"): the names it asks about. None in a question written in title case or
 * capitals, where a capital says nothing.
 */
function namedTerms(question: string): string[] {
  const inner = question.split(/(?<=[.?!])\s+/u).flatMap((sentence) => sentence.split(/[^\p{L}\p{N}'-]+/u).filter(Boolean).slice(1));
  const capitalised = inner.filter((word) => /^\p{Lu}/u.test(word) && word !== 'I');
  if (capitalised.length * 2 > inner.length) return [];
  const out: string[] = [];
  for (const word of capitalised) {
    const t = termOf(word.toLowerCase());
    if (t) out.push(baseStem(t));
  }
  return out;
}

/** Distinct terms of the query's topic words: index terms, irregular English forms joined to their base. */
function queryContentTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const w of queryContentWords(segmentWords(query))) {
    const t = termOf(w);
    if (t) terms.add(baseStem(t));
  }
  return [...terms];
}

function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of segmentWords(text)) {
    const t = termOf(w);
    if (t) out.push(baseStem(t));
  }
  return out;
}

/**
 * 1 for an exact term, 0.8 when one Latin term is a near prefix of the other: Porter stems of one
 * word family sometimes differ ("provinc" / "provinci").
 */
function matchIn(term: string, terms: ReadonlySet<string>): number {
  if (terms.has(term)) return 1;
  if (term.length < 4 || !LATIN_TERM.test(term)) return 0;
  for (const t of terms) {
    if (t.length < 4 || Math.abs(t.length - term.length) > 3) continue;
    if (t.startsWith(term) || term.startsWith(t)) return 0.8;
  }
  return 0;
}

/**
 * Coverage: weighted share of query terms a sentence contains, rare terms weighing more (IDF over
 * the candidate sentences). Headings above a sentence and its neighbours give partial credit, so
 * "Refunds take 5 days" under "## Refund policy" still answers "refund policy duration".
 * Score adds a small bonus for passage rank and for sitting next to a strong sentence.
 */
function scoreSentences(sentences: Sentence[], queryTerms: readonly string[], passages: number): number[] {
  const N = sentences.length;
  const weights = queryTerms.map((q) => {
    const df = sentences.reduce((n, s) => n + (matchIn(q, s.terms) > 0 ? 1 : 0), 0);
    // A term found in no sentence weighs most: the context likely is not about it ("ship to Japan?").
    return Math.log(1 + (N + 1) / (df + 0.5));
  });
  const total = weights.reduce((a, b) => a + b, 0);

  const own = sentences.map((s) => queryTerms.map((q) => matchIn(q, s.terms)));
  sentences.forEach((s, i) => {
    const neighbours = [sentences[i - 1], sentences[i + 1]].filter((t) => t && t.passage === s.passage) as Sentence[];
    let covered = 0;
    let ownCovered = 0;
    queryTerms.forEach((q, k) => {
      const w = weights[k]!;
      const mine = own[i]![k]!;
      const heading = 0.5 * matchIn(q, s.headingTerms);
      const near = 0.35 * Math.max(0, ...neighbours.map((t) => matchIn(q, t.terms)));
      ownCovered += w * mine;
      covered += w * Math.max(mine, heading, near);
    });
    s.ownCoverage = ownCovered / total;
    s.coverage = covered / total;
  });
  sentences.forEach((s, i) => {
    const neighbours = [sentences[i - 1], sentences[i + 1]].filter((t) => t && t.passage === s.passage) as Sentence[];
    const strongestNeighbour = Math.max(0, ...neighbours.map((t) => t.ownCoverage));
    s.score = s.coverage + 0.1 * (1 - s.passage / passages) + 0.1 * strongestNeighbour;
  });
  return weights;
}

/** Articles, prepositions and pronouns: a pair with one of them is no phrase ("an item"). */
const GLUE_WORDS = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'at', 'by', 'with', 'from', 'is', 'are', 'do', 'does', 'i', 'my', 'your', 'we', 'you', 'it', 'and', 'or']);

/** Adjacent word pairs of the question found adjacent in a sentence ("same-day delivery"): a small bonus each. */
function phraseBonus(sentences: Sentence[], asked: string): void {
  const pairs = new Set<string>();
  const words = segmentWords(asked);
  const content = new Set(queryContentWords(words));
  const counts = (w: string) => content.has(w) || !GLUE_WORDS.has(w);
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1]!, words[i]!];
    if ((content.has(a) || content.has(b)) && counts(a) && counts(b)) pairs.add(`${a} ${b}`);
  }
  if (pairs.size === 0) return;
  for (const s of sentences) {
    if (s.ownCoverage === 0) continue;
    const w = segmentWords(s.text);
    let found = 0;
    for (let i = 1; i < w.length && found < 3; i++) if (pairs.has(`${w[i - 1]} ${w[i]}`)) found++;
    s.score += 0.05 * found;
  }
}

/** Same text, or term sets that mostly coincide (a sentence restated in another passage). */
function nearDuplicate(a: Sentence, b: Sentence): boolean {
  let shared = 0;
  for (const t of a.terms) if (b.terms.has(t)) shared++;
  const smaller = Math.min(a.terms.size, b.terms.size);
  const union = a.terms.size + b.terms.size - shared;
  if (union === 0) return a.text === b.text;
  return shared / union >= 0.7 || (smaller >= 3 && shared / smaller >= 0.9);
}

