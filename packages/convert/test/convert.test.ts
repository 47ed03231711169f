import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { MAX_PDF_INFLATED_BYTES } from '@panya/core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ConversionLimitError, convertUpload, UnsupportedMediaTypeError } from '../src/convert.js';
import { inflatedPdfBytes } from '../src/pdf-inflate.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

async function makePdf(pages: string[][], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([420, 300]);
    lines.forEach((line, i) => page.drawText(line, { x: 24, y: 260 - i * 18, size: 12, font }));
  }
  return pdf.save();
}

describe('convertUpload', () => {
  it('keeps Markdown as is and takes the title from the first # heading outside code', async () => {
    const md = '```sh\n# not a title\n```\n\nIntro\n\n## Sub\n\n# Real Title #\r\n\nBody';
    const out = await convertUpload({ filename: 'notes.md', bytes: utf8(md) });
    expect(out.title).toBe('Real Title');
    expect(out.contentMd).toBe(md.replace('\r\n', '\n'));
  });

  it('falls back to the file name for Markdown without an H1', async () => {
    const out = await convertUpload({ filename: 'docs/Getting Started.markdown', bytes: utf8('## Only h2\n\ntext') });
    expect(out.title).toBe('Getting Started');
  });

  it('reads plain text (dropping a BOM) with the file name as title', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('สวัสดี plain text\r\nline 2')]);
    const out = await convertUpload({ filename: 'readme.v2.txt', bytes });
    expect(out).toEqual({ title: 'readme.v2', contentMd: 'สวัสดี plain text\nline 2' });
  });

  it('converts HTML to Markdown, strips scripts and styles, and uses <title>', async () => {
    const html = `<!doctype html><html><head><title>Team &amp; Handbook</title>
      <style>.x { color: red }</style><script>window.secret = "leak"</script></head>
      <body><h1>Welcome</h1><p>Read the <a href="https://example.com/a">guide</a> <strong>first</strong>.</p>
      <script>document.write("also leak")</script><ul><li>one</li><li>two</li></ul>
      <pre><code class="language-js">const x = 1;</code></pre></body></html>`;
    const out = await convertUpload({ filename: 'page.html', bytes: utf8(html) });
    expect(out.title).toBe('Team & Handbook');
    expect(out.contentMd).toContain('# Welcome');
    expect(out.contentMd).toContain('Read the [guide](https://example.com/a) **first**.');
    expect(out.contentMd).toMatch(/^- +one$/m);
    expect(out.contentMd).toContain('```js\nconst x = 1;\n```');
    expect(out.contentMd).not.toMatch(/leak|secret|color: red|Team &/);
  });

  it('takes the HTML title from the first h1 when there is no <title>', async () => {
    const out = await convertUpload({ filename: 'x.htm', bytes: utf8('<p>pre</p><h1>Main <em>Heading</em></h1><h1>Second</h1>') });
    expect(out.title).toBe('Main _Heading_');
  });

  it('extracts PDF text page by page, titled from the metadata', async () => {
    const bytes = await makePdf(
      [
        ['Panya indexes documents.', 'Second line on page one.'],
        ['Page two has the answer: 42.'],
      ],
      'Quarterly Report',
    );
    const out = await convertUpload({ filename: 'report.pdf', mimeType: 'application/pdf', bytes });
    expect(out.title).toBe('Quarterly Report');
    expect(out.contentMd).toBe('Panya indexes documents.\nSecond line on page one.\n\nPage two has the answer: 42.');
  });

  it('titles an untitled PDF from the file name and reports a corrupt one clearly', async () => {
    const out = await convertUpload({ filename: 'scan-01.PDF', bytes: await makePdf([['Just text']]) });
    expect(out).toEqual({ title: 'scan-01', contentMd: 'Just text' });
    await expect(convertUpload({ filename: 'broken.pdf', bytes: utf8('not a pdf at all') })).rejects.toThrow(
      /Cannot read PDF "broken.pdf"/,
    );
  });

  it('decides by extension first, then by MIME type', async () => {
    // The extension wins over a conflicting MIME type.
    const md = await convertUpload({ filename: 'a.md', mimeType: 'text/html', bytes: utf8('# T\n\n<b>x</b>') });
    expect(md.contentMd).toBe('# T\n\n<b>x</b>');
    // No known extension: the MIME type (parameters ignored) decides.
    const html = await convertUpload({ filename: 'download', mimeType: 'text/html; charset=utf-8', bytes: utf8('<h1>Hi</h1>') });
    expect(html).toEqual({ title: 'Hi', contentMd: '# Hi' });
  });

  it('rejects other types with UnsupportedMediaTypeError listing what is supported', async () => {
    const err = await convertUpload({
      filename: 'slides.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: new Uint8Array([0x50, 0x4b, 0x03, 0x04]),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedMediaTypeError);
    const typed = err as UnsupportedMediaTypeError;
    expect(typed.name).toBe('UnsupportedMediaTypeError');
    expect([...typed.supportedExtensions].sort()).toEqual(['.htm', '.html', '.markdown', '.md', '.pdf', '.txt']);
    expect(typed.message).toContain('slides.docx');
    await expect(convertUpload({ filename: 'noext', bytes: utf8('x') })).rejects.toBeInstanceOf(UnsupportedMediaTypeError);
  });

  it('refuses a PDF past the page cap before reading its pages', async () => {
    const pdf = await makePdf([['one'], ['two'], ['three']]);
    const error = await convertUpload({ filename: 'long.pdf', bytes: pdf }, { maxPdfPages: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversionLimitError);
    expect(error).toMatchObject({ limit: 'MAX_PDF_PAGES', max: 2 });
    expect((await convertUpload({ filename: 'ok.pdf', bytes: pdf }, { maxPdfPages: 3 })).contentMd).toContain('three');
  });

  it('refuses a PDF whose compressed streams inflate past the cap before parsing it; images are not counted', async () => {
    // 100 MB of spaces deflate to about 100 KB: a decompression bomb.
    const bomb = deflateSync(Buffer.alloc(100 * 1024 * 1024, 0x20), { level: 9 });
    const pdfWith = (dictionary: string) =>
      Buffer.concat([Buffer.from(`%PDF-1.4\n4 0 obj\n<< ${dictionary} /Length ${bomb.length} >>\nstream\n`), bomb, Buffer.from('\nendstream\nendobj\n%%EOF\n')]);
    const error = await convertUpload({ filename: 'bomb.pdf', bytes: pdfWith('/Filter /FlateDecode') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversionLimitError);
    expect(error).toMatchObject({ limit: 'MAX_PDF_INFLATED_BYTES', max: MAX_PDF_INFLATED_BYTES });
    expect(inflatedPdfBytes(pdfWith('/Filter /FlateDecode'), 200 * 1024 * 1024)).toBe(100 * 1024 * 1024);
    expect(inflatedPdfBytes(pdfWith('/Type /XObject /Subtype /Image /Filter /FlateDecode'), MAX_PDF_INFLATED_BYTES)).toBe(0);
    // An ordinary PDF is far below the cap and converts.
    const pdf = await makePdf([['one'], ['two']]);
    expect(inflatedPdfBytes(pdf, MAX_PDF_INFLATED_BYTES)).toBeGreaterThan(0);
    expect((await convertUpload({ filename: 'ok.pdf', bytes: pdf }, { maxPdfInflatedBytes: 1024 * 1024 })).contentMd).toContain('two');
  });

  it('drops NUL characters from converted text', async () => {
    expect((await convertUpload({ filename: 'a.txt', bytes: utf8('a\u0000b') })).contentMd).toBe('ab');
  });
});

// A Thai page (fixtures/thai.html, with Debian's fonts-thai-tlwg) printed to PDF by Chromium
// (`chromium --headless --print-to-pdf`) and by LibreOffice (`soffice --headless --infilter="HTML (StarWriter)"
// --convert-to pdf:writer_pdf_Export`). Their tone marks and upper vowels are glyph variants without Unicode of
// their own, SARA AM two glyphs: only the spans' /ActualText says what each cluster reads.
describe('Thai PDF text', () => {
  const expected = [
    'ฮาร์ดแวร์ไม่รวมในแพ็กเกจ',
    'ราคานี้ไม่รวมค่าส่ง น้ำหนักไม่เกิน 5 กิโลกรัม ผู้ใช้ต้องกดปุ่ม ส่ง เพื่อยืนยัน',
    'ลูกค้าจ่ายพร้อมเพย์แล้วขอคืนเงิน ร้านต้องโอนคืนเองจากแอปธนาคาร ภายใน ๗ วัน',
    'Hardware is not included.',
  ];
  const lines = (text: string) => text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const fixtures = ['thai-chromium.pdf', 'thai-libreoffice.pdf', 'thai-tounicode.pdf'].map((name) => [name, new URL(`./fixtures/${name}`, import.meta.url)] as const);

  it.each(fixtures)('%s: tone marks, upper and lower vowels and SARA AM stay with their base characters, in order', async (name, fixture) => {
    const { contentMd } = await convertUpload({ filename: name, bytes: new Uint8Array(readFileSync(fixture)) });
    expect(lines(contentMd)).toEqual(expected);
  });

  // Poppler's reading is the reference for the characters and their order; its spacing of LibreOffice's
  // placed marks ("น้ำหนั กไม่") is not, so spaces are left out of the comparison.
  it.skipIf(!hasPdftotext()).each(fixtures)("%s: the same characters in the same order as Poppler's pdftotext", async (name, fixture) => {
    const { contentMd } = await convertUpload({ filename: name, bytes: new Uint8Array(readFileSync(fixture)) });
    const poppler = execFileSync('pdftotext', ['-enc', 'UTF-8', fileURLToPath(fixture), '-'], { encoding: 'utf8' });
    const unspaced = (text: string) => lines(text).map((l) => l.replace(/\s/g, ''));
    expect(unspaced(contentMd)).toEqual(unspaced(poppler));
  });
});

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
