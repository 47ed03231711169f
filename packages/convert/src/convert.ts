import { hasMarker, MAX_CONVERTED_CHARS, MAX_PDF_INFLATED_BYTES, MAX_PDF_PAGES } from '@panya/core';
import TurndownService from 'turndown';
import { inflatedPdfBytes } from './pdf-inflate.js';

export interface UploadedFile {
  filename: string;
  mimeType?: string;
  bytes: Uint8Array;
}

export interface ConvertedUpload {
  title: string;
  contentMd: string;
}

type Kind = 'markdown' | 'text' | 'html' | 'pdf';

const BY_EXTENSION: Readonly<Record<string, Kind>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
};

const BY_MIME: Readonly<Record<string, Kind>> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
};

export const SUPPORTED_UPLOAD_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

const UNSUPPORTED_MEDIA_TYPE = Symbol.for('panya.error.unsupported-media-type');
const CONVERSION_LIMIT = Symbol.for('panya.error.conversion-limit');

export class UnsupportedMediaTypeError extends Error {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly [UNSUPPORTED_MEDIA_TYPE] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, UNSUPPORTED_MEDIA_TYPE);
  }
  readonly supportedExtensions: readonly string[] = SUPPORTED_UPLOAD_EXTENSIONS;

  constructor(
    readonly filename: string,
    readonly mimeType?: string,
  ) {
    super(
      `Unsupported file type: "${filename}"${mimeType ? ` (${mimeType})` : ''}. ` +
        `Supported: ${SUPPORTED_UPLOAD_EXTENSIONS.join(', ')}`,
    );
  }
}

/** A well-formed file that costs more to convert than one upload may: `limit` names the bound. */
export class ConversionLimitError extends Error {
  override readonly name = 'ConversionLimitError';
  readonly [CONVERSION_LIMIT] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, CONVERSION_LIMIT);
  }
  constructor(
    message: string,
    readonly limit: 'MAX_PDF_PAGES' | 'MAX_PDF_INFLATED_BYTES' | 'MAX_CONVERTED_CHARS' | 'CONVERSION_BUDGET_MS',
    readonly max: number,
  ) {
    super(message);
  }
}

export function isUnsupportedMediaTypeError(error: unknown): error is UnsupportedMediaTypeError {
  return hasMarker(error, UNSUPPORTED_MEDIA_TYPE);
}

export function isConversionLimitError(error: unknown): error is ConversionLimitError {
  return hasMarker(error, CONVERSION_LIMIT);
}

/** Turns an uploaded file into a title and Markdown content. The extension decides; the MIME type is the fallback. */
export async function convertUpload(file: UploadedFile, limits: { maxPdfPages?: number; maxPdfInflatedBytes?: number } = {}): Promise<ConvertedUpload> {
  const kind = detectKind(file.filename, file.mimeType);
  const fallbackTitle = baseName(file.filename);
  const converted = await (async (): Promise<ConvertedUpload> => {
    switch (kind) {
      case 'markdown': {
        const md = decodeText(file.bytes);
        return { title: firstH1(md) ?? fallbackTitle, contentMd: md };
      }
      case 'text':
        return { title: fallbackTitle, contentMd: decodeText(file.bytes) };
      case 'html':
        return htmlToMarkdown(decodeText(file.bytes), fallbackTitle);
      case 'pdf':
        return pdfToText(file.bytes, file.filename, fallbackTitle, limits.maxPdfPages ?? MAX_PDF_PAGES, limits.maxPdfInflatedBytes ?? MAX_PDF_INFLATED_BYTES);
    }
  })();
  checkLength(converted.contentMd.length, file.filename);
  return converted;
}

/** PDF and HTML take real work to convert; markdown and plain text are only decoded (false too for formats refused later). */
export function isDocumentFormat(file: Pick<UploadedFile, 'filename' | 'mimeType'>): boolean {
  try {
    const kind = detectKind(file.filename, file.mimeType);
    return kind === 'pdf' || kind === 'html';
  } catch {
    return false;
  }
}

function checkLength(chars: number, filename: string): void {
  if (chars > MAX_CONVERTED_CHARS) {
    throw new ConversionLimitError(`"${fileName(filename)}" converts to more than ${MAX_CONVERTED_CHARS} characters of text.`, 'MAX_CONVERTED_CHARS', MAX_CONVERTED_CHARS);
  }
}

function detectKind(filename: string, mimeType: string | undefined): Kind {
  const name = fileName(filename).toLowerCase();
  const dot = name.lastIndexOf('.');
  const byExt = dot > 0 ? BY_EXTENSION[name.slice(dot)] : undefined;
  if (byExt) return byExt;
  const mime = mimeType?.split(';')[0]!.trim().toLowerCase();
  const byMime = mime ? BY_MIME[mime] : undefined;
  if (byMime) return byMime;
  throw new UnsupportedMediaTypeError(filename, mimeType);
}

/** Browsers may send a path; only the last segment is the name. */
function fileName(filename: string): string {
  return filename.split(/[/\\]/).pop() ?? filename;
}

function baseName(filename: string): string {
  const name = fileName(filename).trim();
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return stem.trim() || 'Untitled';
}

function decodeText(bytes: Uint8Array): string {
  // TextDecoder drops a UTF-8 BOM; invalid bytes become U+FFFD rather than failing the upload.
  // NUL is no text (and PostgreSQL cannot store it).
  return new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n').replace(/\0/g, '');
}

/** First ATX `# ` heading outside fenced code. */
function firstH1(md: string): string | undefined {
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (!fence) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence) continue;
    const heading = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1]?.trim();
    if (heading) return heading;
  }
  return undefined;
}

function htmlToMarkdown(html: string, fallbackTitle: string): ConvertedUpload {
  let title: string | undefined;
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed']);
  td.addRule('title', {
    filter: 'title',
    replacement: (_content, node) => {
      title ??= (node.textContent ?? '').replace(/\s+/g, ' ').trim() || undefined;
      return '';
    },
  });
  // A link or image whose target is not http(s) (javascript:, data:, vbscript:, relative) keeps only its words.
  const webTarget = (target: string | null) => target !== null && /^\s*https?:\/\//i.test(target);
  td.addRule('unsafeLink', {
    filter: (node) => node.nodeName === 'A' && !webTarget(node.getAttribute('href')),
    replacement: (content) => content,
  });
  td.addRule('unsafeImage', {
    filter: (node) => node.nodeName === 'IMG' && !webTarget(node.getAttribute('src')),
    replacement: (_content, node) => (node as { getAttribute(name: string): string | null }).getAttribute('alt') ?? '',
  });
  const contentMd = td.turndown(html).trim();
  return { title: title ?? firstH1(contentMd) ?? fallbackTitle, contentMd };
}

/** Narrower than this (PDF units), a blank text item is an artefact of glyph placement. */
const MIN_SPACE_WIDTH = 0.5;

/** A text item of pdf.js, or a marked-content boundary (`actualText`: see patches/pdfjs-dist). */
type TextContentItem = { str: string; hasEOL: boolean; width: number } | { type: string; actualText?: string | null };

/**
 * A page's text in content order. Inside a span with `/ActualText`, the span's text replaces its
 * glyphs' own: Chromium (Skia) writes each Thai cluster whose glyphs do not map one-to-one to
 * characters so — a tone mark or upper vowel drawn as a positioned variant glyph has no Unicode
 * of its own, SARA AM is drawn as two glyphs — and the glyphs alone read "ไมรวม … นํ้า" for
 * "ไม่รวม … น้ำ"; LibreOffice writes such spans too. Poppler's pdftotext honours them the same way.
 */
function pageText(items: readonly TextContentItem[]): string {
  let text = '';
  // Per open marked-content span: its ActualText when it replaces its glyphs (only the outermost one does).
  const spans: (string | null)[] = [];
  for (const item of items) {
    if ('type' in item) {
      if (item.type === 'endMarkedContent') {
        // Said at the span's end: the spaces and line ends pdf.js infers before its first glyph come first.
        const actual = spans.pop();
        if (typeof actual === 'string') text += actual;
      } else if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps') {
        const replacing = !spans.some((a) => a !== null) && typeof item.actualText === 'string';
        spans.push(replacing ? item.actualText! : null);
      }
      continue;
    }
    const blank = !/\S/u.test(item.str);
    // A space pdf.js infers where a glyph is drawn back over the one before (LibreOffice places Thai
    // marks so) is a few hundredths of a unit wide, a real one about a quarter of the font size (1.5
    // units even at 6 pt): it is no space of the text ("น ้ำ", "ต้ อง").
    if (blank && item.str !== '' && Math.abs(item.width) < MIN_SPACE_WIDTH) {
      if (item.hasEOL) text += '\n';
      continue;
    }
    // Inside a replacing span only the inferred spacing stays; the glyphs' own text is the ActualText.
    if (!spans.some((a) => a !== null) || blank) text += item.str;
    if (item.hasEOL) text += '\n';
  }
  // A span left open at the page's end still says its text.
  for (const actual of spans) if (typeof actual === 'string') text += actual;
  return text;
}

async function pdfToText(bytes: Uint8Array, filename: string, fallbackTitle: string, maxPages: number, maxInflated: number): Promise<ConvertedUpload> {
  if (inflatedPdfBytes(bytes, maxInflated) > maxInflated) {
    throw new ConversionLimitError(`"${fileName(filename)}" inflates to more than ${maxInflated / 1024 / 1024} MB of compressed content; at most that much is read.`, 'MAX_PDF_INFLATED_BYTES', maxInflated);
  }
  // Loaded on first use: pdf.js is large and most uploads are not PDFs.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js may detach the buffer it is given, so it gets a copy.
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true });
  try {
    const doc = await task.promise;
    const { info } = await doc.getMetadata();
    const metaTitle = (info as { Title?: unknown } | undefined)?.Title;
    if (doc.numPages > maxPages) {
      throw new ConversionLimitError(`"${fileName(filename)}" has ${doc.numPages} pages; at most ${maxPages} are read.`, 'MAX_PDF_PAGES', maxPages);
    }
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      let text = pageText((await page.getTextContent({ includeMarkedContent: true })).items as TextContentItem[]);
      page.cleanup();
      text = text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
      if (text) pages.push(text.replace(/\0/g, ''));
      // A decompression bomb stops here rather than after the last page.
      checkLength((chars += text.length), filename);
    }
    const title = typeof metaTitle === 'string' && metaTitle.trim() ? metaTitle.trim() : fallbackTitle;
    return { title, contentMd: pages.join('\n\n') };
  } catch (cause) {
    if (isConversionLimitError(cause)) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`Cannot read PDF "${filename}": ${reason}`, { cause });
  } finally {
    await task.destroy();
  }
}
