import { Lexer, type Token, type Tokens } from 'marked';

export interface MarkdownChunk {
  index: number;
  /** Headings enclosing the chunk, outermost first (H1 > H2 > H3 …). */
  headingPath: string[];
  /** Markdown of the chunk's blocks, without the heading path. */
  text: string;
  tokenCount: number;
}

export interface ChunkOptions {
  /** Size a chunk aims for. Default 350. */
  targetTokens?: number;
  /** Tokens repeated from the end of a chunk at the start of the next one in the same section. Default 50. */
  overlapTokens?: number;
  /** Code blocks and tables up to this size stay whole even when above the target. Default 2 × target. */
  hardMaxTokens?: number;
  /** Default: number of word-like `Intl.Segmenter` segments, which also works for scripts without spaces (Thai). */
  countTokens?: (text: string) => number;
}

// A fixed locale keeps results identical across machines; ICU picks dictionary
// segmentation for Thai, Lao, Khmer, CJK from the script, not the locale.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export function countWordTokens(text: string): number {
  let n = 0;
  for (const s of segments(wordSegmenter, text)) if (s.isWordLike) n++;
  return n;
}

const WINDOW = 2048;
const MARGIN = 128;

/**
 * `Intl.Segmenter` iteration costs time proportional to the whole input per segment in
 * Node 20's V8 (quadratic overall), so long texts are segmented in windows. Segments
 * ending near a window's edge may be cut short by it, so those are redone in the next window.
 */
function* segments(segmenter: Intl.Segmenter, text: string): Generator<{ segment: string; isWordLike?: boolean }> {
  let pos = 0;
  let size = WINDOW;
  while (pos < text.length) {
    if (pos + size >= text.length) {
      yield* segmenter.segment(text.slice(pos));
      return;
    }
    let kept = 0;
    for (const s of segmenter.segment(text.slice(pos, pos + size))) {
      if (s.index + s.segment.length > size - MARGIN) break;
      yield s;
      kept = s.index + s.segment.length;
    }
    if (kept === 0) {
      size *= 2; // one segment spans the window (a long sentence): widen it
    } else {
      pos += kept;
      size = WINDOW;
    }
  }
}

/**
 * A piece of text the packer places whole. `sep` joins it to the unit before it in
 * the same chunk: blank line between blocks, nothing between pieces of one block
 * (those keep their own whitespace).
 */
interface Unit {
  text: string;
  tokens: number;
  sep: string;
  /** Code and tables: never split further nor used as overlap. */
  atomic: boolean;
  /** Finer pieces, for prose only; computed on demand. */
  split?: () => Unit[];
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const target = Math.max(1, options.targetTokens ?? 350);
  const overlap = Math.max(0, Math.min(options.overlapTokens ?? 50, Math.floor(target / 2)));
  const hardMax = Math.max(target, options.hardMaxTokens ?? target * 2);
  const count = options.countTokens ?? countWordTokens;
  if (markdown.trim() === '') return [];

  const ctx: Ctx = { target, overlap, hardMax, count };
  const chunks: MarkdownChunk[] = [];
  const stack: { depth: number; text: string }[] = [];
  let blocks: Token[] = [];

  const flushSection = () => {
    if (blocks.length === 0) return;
    const path = stack.map((h) => h.text);
    for (const text of packSection(blocks, ctx)) {
      chunks.push({ index: chunks.length, headingPath: [...path], text, tokenCount: count(text) });
    }
    blocks = [];
  };

  for (const token of Lexer.lex(markdown, { gfm: true })) {
    if (token.type === 'heading') {
      flushSection();
      const h = token as Tokens.Heading;
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
      stack.push({ depth: h.depth, text: h.text.trim() });
    } else if (token.type !== 'space' && token.type !== 'hr') {
      blocks.push(token);
    }
  }
  flushSection();
  return chunks;
}

interface Ctx {
  target: number;
  overlap: number;
  hardMax: number;
  count: (text: string) => number;
}

function packSection(tokens: Token[], ctx: Ctx): string[] {
  const { target } = ctx;
  // Below this fill a chunk takes sentences of the next block rather than ending early.
  const minFill = Math.ceil(target / 2);
  const units: Unit[] = [];
  for (const t of tokens) {
    for (const u of blockUnits(t, ctx)) for (const piece of presplit(u, target)) units.push(piece);
  }
  // Pending units, next one last: taking and putting back are O(1) even for long Thai paragraphs cut into words.
  const pending = units.reverse();

  const out: string[] = [];
  let current: Unit[] = [];
  let size = 0;
  let fresh = 0; // units in `current` not carried over from the previous chunk

  const reset = (carry: Unit[]) => {
    current = carry;
    size = sum(carry);
    fresh = 0;
    if (size === 0) current = [];
  };
  const emit = () => {
    if (fresh > 0) out.push(join(current));
    reset([]);
  };
  const push = (u: Unit) => {
    current.push(u);
    size += u.tokens;
    fresh++;
  };
  const splitInto = (u: Unit): boolean => {
    const pieces = u.split?.() ?? [];
    if (pieces.length <= 1) return false;
    for (let i = pieces.length - 1; i >= 0; i--) pending.push(pieces[i]!);
    return true;
  };

  while (pending.length > 0) {
    const unit = pending.pop()!;
    if (unit.atomic && unit.tokens > target) {
      // An oversized code block or table stands alone: no carried prose in, no overlap out.
      emit();
      push(unit);
      emit();
      continue;
    }
    if (size + unit.tokens <= target) {
      push(unit);
      continue;
    }
    if (fresh === 0) {
      // Only carried overlap so far: shorten it rather than split the unit.
      reset(tail(current, target - unit.tokens));
      push(unit);
      continue;
    }
    if (size < minFill && splitInto(unit)) continue;
    const prev = current;
    emit();
    reset(tail(prev, ctx.overlap));
    pending.push(unit);
  }
  emit();
  return out.filter((t) => t !== '');
}

function join(units: Unit[]): string {
  let s = '';
  units.forEach((u, i) => {
    s += i === 0 ? u.text : u.sep + u.text;
  });
  return s.trim();
}

function sum(units: Unit[]): number {
  return units.reduce((n, u) => n + u.tokens, 0);
}

/** The last prose of a chunk, up to `budget` tokens, to repeat at the start of the next. */
function tail(units: Unit[], budget: number): Unit[] {
  const taken: Unit[] = [];
  let left = budget;
  for (let i = units.length - 1; i >= 0 && left > 0; i--) {
    const u = units[i]!;
    if (u.atomic) break;
    if (u.tokens <= left) {
      taken.unshift(u);
      left -= u.tokens;
      continue;
    }
    const pieces = u.split?.() ?? [];
    if (pieces.length > 1) taken.unshift(...tail(pieces, left));
    break;
  }
  return taken;
}

/** Splits prose units above the target until every piece fits (or is a single word). */
function presplit(u: Unit, target: number): Unit[] {
  if (u.tokens <= target || !u.split) return [u];
  const pieces = u.split();
  if (pieces.length <= 1) return [u];
  return pieces.flatMap((p) => presplit(p, target));
}

function blockUnits(token: Token, ctx: Ctx): Unit[] {
  const raw = token.raw.replace(/\s+$/, '');
  const tokens = ctx.count(raw);
  if (token.type === 'code') {
    const code = token as Tokens.Code;
    if (tokens <= ctx.hardMax) {
      return [{ text: raw, tokens, sep: '\n\n', atomic: true }];
    }
    return splitCode(code, ctx);
  }
  if (token.type === 'table') {
    if (tokens <= ctx.hardMax) return [{ text: raw, tokens, sep: '\n\n', atomic: true }];
    return splitTable(raw, ctx);
  }
  if (token.type === 'list') {
    const items = (token as Tokens.List).items.map((item) => item.raw.replace(/\s+$/, ''));
    return [
      {
        text: raw,
        tokens,
        sep: '\n\n',
        atomic: false,
        split: () => items.map((text, i) => proseUnit(text, i === 0 ? '\n\n' : '\n', ctx)),
      },
    ];
  }
  return [proseUnit(raw, '\n\n', ctx)];
}

function proseUnit(text: string, sep: string, ctx: Ctx): Unit {
  return { text, tokens: ctx.count(text), sep, atomic: false, split: () => splitProse(text, sep, ctx) };
}

/** Sentences first; a sentence still too long (e.g. Thai, which has no sentence marks) goes by words. */
function splitProse(text: string, sep: string, ctx: Ctx): Unit[] {
  const sentences = [...segments(sentenceSegmenter, text)].map((s) => s.segment);
  if (sentences.length > 1) {
    return sentences.map((s, i) => ({
      text: s,
      tokens: ctx.count(s),
      sep: i === 0 ? sep : '',
      atomic: false,
      split: () => splitWords(s, i === 0 ? sep : '', ctx),
    }));
  }
  return splitWords(text, sep, ctx);
}

function splitWords(text: string, sep: string, ctx: Ctx): Unit[] {
  // Each word keeps the spaces and punctuation that follow it, so pieces rejoin losslessly.
  const words: string[] = [];
  for (const s of segments(wordSegmenter, text)) {
    if (s.isWordLike || words.length === 0) words.push(s.segment);
    else words[words.length - 1] += s.segment;
  }
  return words.map((w, i) => ({ text: w, tokens: ctx.count(w), sep: i === 0 ? sep : '', atomic: false }));
}

function splitCode(code: Tokens.Code, ctx: Ctx): Unit[] {
  const longestRun = Math.max(2, ...(code.text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longestRun + 1);
  const open = fence + (code.lang ?? '');
  const groups = groupLines(code.text.split('\n'), ctx.hardMax - ctx.count(open), ctx.count);
  return groups.map((lines) => {
    const text = `${open}\n${lines.join('\n')}\n${fence}`;
    return { text, tokens: ctx.count(text), sep: '\n\n', atomic: true };
  });
}

function splitTable(raw: string, ctx: Ctx): Unit[] {
  // GFM table rows are single lines: header, delimiter row, then body rows.
  const lines = raw.split('\n');
  const header = lines.slice(0, 2).join('\n');
  const groups = groupLines(lines.slice(2), ctx.hardMax - ctx.count(header), ctx.count);
  return groups.map((rows) => {
    const text = `${header}\n${rows.join('\n')}`;
    return { text, tokens: ctx.count(text), sep: '\n\n', atomic: true };
  });
}

function groupLines(lines: string[], budget: number, count: (t: string) => number): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let size = 0;
  for (const line of lines) {
    const n = count(line);
    if (group.length > 0 && size + n > budget) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(line);
    size += n;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
