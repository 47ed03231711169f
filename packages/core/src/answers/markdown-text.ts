/** A passage's markdown as the plain-text units an answer quotes. */
import { Lexer, type Token, type Tokens } from 'marked';

export interface MarkdownUnit {
  text: string;
  /** Table rows and code lines: quoted whole, never sentence-split. */
  atomic: boolean;
  block: number;
  /** In-passage headings above this unit, outermost first. */
  headings: string[];
  /** The list this unit is an item of (numbered in passage order), and whether that list is ordered (steps). */
  list?: { id: number; ordered: boolean };
}

/** Plain-text units of a passage's markdown: paragraphs, list items, table rows, code lines. Headings become context. */
export function markdownUnits(markdown: string): MarkdownUnit[] {
  const units: MarkdownUnit[] = [];
  const headings: { depth: number; text: string }[] = [];
  let block = 0;
  let lists = 0;
  let list: MarkdownUnit['list'];
  const push = (text: string, atomic: boolean) => {
    const clean = text.replace(/\s+/gu, ' ').trim();
    if (clean) units.push({ text: clean, atomic, block: block++, headings: headings.map((h) => h.text), ...(list ? { list } : {}) });
  };
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const h = token as Tokens.Heading;
          while (headings.length > 0 && headings[headings.length - 1]!.depth >= h.depth) headings.pop();
          headings.push({ depth: h.depth, text: inlineText(h.tokens) });
          break;
        }
        case 'paragraph':
        case 'text': {
          const t = token as Tokens.Paragraph | Tokens.Text;
          push(t.tokens ? inlineText(t.tokens) : decodeEntities(t.text), false);
          break;
        }
        case 'list': {
          // A nested list belongs to its outer item's list: the steps are read as one.
          const outer = list;
          list ??= { id: lists++, ordered: (token as Tokens.List).ordered };
          for (const item of (token as Tokens.List).items) walk(item.tokens);
          list = outer;
          break;
        }
        case 'blockquote':
          walk((token as Tokens.Blockquote).tokens);
          break;
        case 'table': {
          // A row alone ("Bangkok | 1-2 days") means little: quote it with its column names.
          const table = token as Tokens.Table;
          const header = table.header.map((c) => inlineText(c.tokens));
          for (const row of table.rows) {
            const cells = row
              .map((c, i) => [header[i] ?? '', inlineText(c.tokens)] as const)
              .filter(([, value]) => value !== '')
              .map(([name, value]) => (name ? `${name}: ${value}` : value));
            push(cells.join('; '), true);
          }
          break;
        }
        case 'code':
          for (const line of (token as Tokens.Code).text.split('\n')) push(line, true);
          break;
        default:
          // space, hr, html, checkbox, def: nothing quotable
          break;
      }
    }
  };
  walk(Lexer.lex(markdown, { gfm: true }));
  return units;
}

/** Inline markdown to plain text: emphasis, code spans and links lose their syntax, keep their words. */
function inlineText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'strong':
      case 'em':
      case 'del':
      case 'link': {
        const t = token as Tokens.Text;
        out += t.tokens ? inlineText(t.tokens) : decodeEntities(t.text);
        break;
      }
      case 'image':
      case 'codespan':
      case 'escape':
        out += decodeEntities((token as Tokens.Codespan).text);
        break;
      case 'br':
        out += ' ';
        break;
      default:
        break; // inline html, checkboxes
    }
  }
  // Bracketed numbers in the source would read as citations of ours: a footnote mark glued to the
  // text it annotates ("1998.[5]") is dropped, any other bracketed number kept in parentheses.
  return out.replace(/(?<=\S)\[\d+\]/gu, '').replace(/\[(\d+)\]/g, '($1)');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]!);
}
