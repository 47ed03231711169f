import { describe, expect, it } from 'vitest';
import { chunkMarkdown, countWordTokens } from '../src/knowledge/chunker.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** Prose of `n` sentences, each `len` words, with distinct words so overlaps can be located. */
function prose(n: number, len: number, tag = 'w'): string {
  const out: string[] = [];
  let k = 0;
  for (let s = 0; s < n; s++) {
    const ws = Array.from({ length: len }, () => `${tag}${k++}`);
    out.push(`${ws[0]!.toUpperCase()} ${ws.slice(1).join(' ')}.`);
  }
  return out.join(' ');
}

function codeBlock(lines: number, lang = 'ts'): string {
  const body = Array.from({ length: lines }, (_, i) => `const value${i} = compute(${i});`);
  return ['```' + lang, ...body, '```'].join('\n');
}

function tableBlock(rows: number): string {
  const body = Array.from({ length: rows }, (_, i) => `| row${i} | alpha beta gamma | ${i} |`);
  return ['| name | words | n |', '| --- | --- | --- |', ...body].join('\n');
}

describe('chunkMarkdown', () => {
  it('returns no chunks for empty or whitespace-only documents', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('  \n\n\t \n')).toEqual([]);
  });

  it('attaches the heading path and leaves headings out of the text', () => {
    const md = [
      'Preamble text.',
      '# Guide',
      'Guide intro.',
      '## Install',
      'Run the installer.',
      '### Linux',
      'Use the package manager.',
      '## Usage',
      'Call the API.',
      '#### Deep',
      'Skipped levels are fine.',
      'Setext Title\n============',
      'Under setext.',
    ].join('\n\n');
    const chunks = chunkMarkdown(md);
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      [[], 'Preamble text.'],
      [['Guide'], 'Guide intro.'],
      [['Guide', 'Install'], 'Run the installer.'],
      [['Guide', 'Install', 'Linux'], 'Use the package manager.'],
      [['Guide', 'Usage'], 'Call the API.'],
      [['Guide', 'Usage', 'Deep'], 'Skipped levels are fine.'],
      [['Setext Title'], 'Under setext.'],
    ]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(chunks[2]!.tokenCount).toBe(3);
  });

  it('keeps a code block larger than the target whole, in a chunk of its own', () => {
    const code = codeBlock(20); // ~80 tokens: above the target, below the hard max
    const md = `# API\n\n${prose(6, 12)}\n\n${code}\n\n${prose(6, 12, 'z')}`;
    const chunks = chunkMarkdown(md, { targetTokens: 60, overlapTokens: 10 });
    const withFence = chunks.filter((c) => c.text.includes('```'));
    expect(withFence).toHaveLength(1);
    expect(withFence[0]!.text).toBe(code);
    expect(withFence[0]!.tokenCount).toBeGreaterThan(60);
  });

  it('splits a code block above the hard max only at line boundaries, re-fencing each piece', () => {
    const code = codeBlock(100, 'python');
    const chunks = chunkMarkdown(code, { targetTokens: 50 });
    expect(chunks.length).toBeGreaterThan(2);
    const original = code.split('\n').slice(1, -1);
    const rejoined: string[] = [];
    for (const c of chunks) {
      const lines = c.text.split('\n');
      expect(lines[0]).toMatch(/^`{3,}python$/);
      expect(lines.at(-1)).toMatch(/^`{3,}$/);
      expect(c.tokenCount).toBeLessThanOrEqual(100);
      rejoined.push(...lines.slice(1, -1));
    }
    expect(rejoined).toEqual(original);
  });

  it('never splits inside a table row, and repeats the header when a huge table is split', () => {
    const table = tableBlock(80);
    const md = `${prose(3, 10)}\n\n${table}\n\n${prose(3, 10, 'q')}`;
    const chunks = chunkMarkdown(md, { targetTokens: 60 });
    const rows = new Set(table.split('\n'));
    const pieces = chunks.filter((c) => c.text.includes('|'));
    expect(pieces.length).toBeGreaterThan(1);
    const bodyRows: string[] = [];
    for (const c of pieces) {
      const lines = c.text.split('\n');
      expect(lines.slice(0, 2)).toEqual(['| name | words | n |', '| --- | --- | --- |']);
      for (const line of lines) expect(rows.has(line)).toBe(true);
      bodyRows.push(...lines.slice(2));
    }
    expect(bodyRows).toEqual(table.split('\n').slice(2));
  });

  it('keeps a small table whole with the prose around it', () => {
    const table = tableBlock(3);
    const md = `Intro sentence here.\n\n${table}\n\nOutro sentence here.`;
    const [only, ...rest] = chunkMarkdown(md, { targetTokens: 100 });
    expect(rest).toEqual([]);
    expect(only!.text).toBe(md);
  });

  it('overlaps consecutive chunks of one section, but not across sections', () => {
    const md = `# A\n\n${prose(20, 10, 'a')}\n\n# B\n\n${prose(20, 10, 'b')}`;
    const overlapTokens = 15;
    const chunks = chunkMarkdown(md, { targetTokens: 60, overlapTokens });
    const a = chunks.filter((c) => c.headingPath[0] === 'A');
    const b = chunks.filter((c) => c.headingPath[0] === 'B');
    expect(a.length).toBeGreaterThan(2);
    for (const section of [a, b]) {
      for (let i = 1; i < section.length; i++) {
        const prev = words(section[i - 1]!.text);
        const next = words(section[i]!.text);
        // The longest suffix of prev that is a prefix of next is the overlap.
        let k = Math.min(prev.length, next.length);
        while (k > 0 && prev.slice(-k).join(' ') !== next.slice(0, k).join(' ')) k--;
        expect(k).toBeGreaterThan(0);
        expect(k).toBeLessThanOrEqual(overlapTokens);
      }
    }
    expect(b[0]!.text.startsWith('B0')).toBe(true);
  });

  it('emits each word exactly once when overlap is off, so nothing is lost', () => {
    const text = prose(40, 9);
    const chunks = chunkMarkdown(text, { targetTokens: 50, overlapTokens: 0 });
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });

  it('prefers paragraph boundaries, then sentence boundaries', () => {
    const paras = [prose(3, 10, 'p'), prose(3, 10, 'q'), prose(3, 10, 'r'), prose(3, 10, 's')];
    const byPara = chunkMarkdown(paras.join('\n\n'), { targetTokens: 70, overlapTokens: 0 });
    expect(byPara.map((c) => c.text)).toEqual([
      `${paras[0]}\n\n${paras[1]}`,
      `${paras[2]}\n\n${paras[3]}`,
    ]);

    const long = prose(30, 11);
    const bySentence = chunkMarkdown(long, { targetTokens: 50, overlapTokens: 0 });
    expect(bySentence.length).toBeGreaterThan(5);
    for (const c of bySentence) {
      expect(c.text).toMatch(/^[A-Z]/);
      expect(c.text.endsWith('.')).toBe(true);
    }
  });

  it('keeps chunk sizes near the target', () => {
    // Sentences of uneven length, so sizes do not line up by construction.
    const sentences = Array.from({ length: 120 }, (_, i) => {
      const len = 5 + ((i * 7) % 17);
      return `${'Lorem'} ${Array.from({ length: len - 1 }, (_, j) => `t${i}x${j}`).join(' ')}.`;
    });
    const paragraphs: string[] = [];
    for (let i = 0; i < sentences.length; i += 4) paragraphs.push(sentences.slice(i, i + 4).join(' '));
    const target = 120;
    const chunks = chunkMarkdown(paragraphs.join('\n\n'), { targetTokens: target });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(target);
    for (const c of chunks.slice(0, -1)) expect(c.tokenCount).toBeGreaterThanOrEqual(target / 2);
  });

  it('splits Thai text, which has no spaces or sentence marks, at word boundaries', () => {
    const sentence = 'ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำและไม่มีเครื่องหมายจบประโยค';
    const thai = sentence.repeat(40);
    const perSentence = countWordTokens(sentence);
    expect(perSentence).toBeGreaterThan(5);

    const chunks = chunkMarkdown(`# บทนำ\n\n${thai}`, { targetTokens: 100, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.headingPath[0] === 'บทนำ')).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(thai);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(100);
    for (const c of chunks.slice(0, -1)) expect(c.tokenCount).toBeGreaterThan(90);
    // Every cut falls on a word boundary of the original text.
    const boundaries = new Set<number>();
    for (const s of new Intl.Segmenter('th', { granularity: 'word' }).segment(thai)) boundaries.add(s.index);
    let offset = 0;
    for (const c of chunks) {
      expect(boundaries.has(offset)).toBe(true);
      offset += c.text.length;
    }

    const overlapped = chunkMarkdown(thai, { targetTokens: 100, overlapTokens: 20 });
    expect(overlapped.length).toBeGreaterThan(chunks.length - 1);
    const tail = overlapped[0]!.text.slice(-10);
    expect(overlapped[1]!.text.slice(0, 60)).toContain(tail);
  });

  it('uses a custom token counter', () => {
    const text = prose(10, 10);
    const byChars = chunkMarkdown(text, { targetTokens: 100, overlapTokens: 0, countTokens: (t) => t.length });
    for (const c of byChars) {
      expect(c.tokenCount).toBe(c.text.length);
      expect(c.tokenCount).toBeLessThanOrEqual(100);
    }
    expect(byChars.length).toBeGreaterThan(3);
  });

  it('counts tokens in long texts exactly, including scripts without spaces', () => {
    expect(countWordTokens('alpha beta, gamma. '.repeat(3000))).toBe(9000);
    const sentence = 'ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ';
    expect(countWordTokens(sentence.repeat(500))).toBe(countWordTokens(sentence) * 500);
  });

  it('splits a very long paragraph (segmented in windows) without losing or repeating text', () => {
    const text = prose(6000, 8); // ~300 KB in one paragraph
    const chunks = chunkMarkdown(text, { overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(100);
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });

  it('is deterministic', () => {
    const md = `# T\n\n${prose(25, 9)}\n\n${codeBlock(10)}\n\n## U\n\n${tableBlock(5)}\n\n${'ทดสอบภาษาไทย'.repeat(50)}`;
    const a = chunkMarkdown(md, { targetTokens: 40 });
    const b = chunkMarkdown(md, { targetTokens: 40 });
    expect(a.length).toBeGreaterThan(3);
    expect(b).toEqual(a);
  });
});
