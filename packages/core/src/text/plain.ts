/**
 * Plain text of stored markdown for what the API shows as text (search `text` and `title`,
 * citation `snippet` and `title`, MCP tool text): a caller may put it into a page, so no markup
 * and no link target survives — `<img onerror>` or `[x](javascript:…)` become their visible words.
 * Line structure and ordinary markdown markers (headings, lists, tables) stay readable.
 */

const IMAGE = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const LINK = /\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*\S.*$/gm;
const AUTOLINK = /<([a-z][a-z0-9+.-]*:[^<>\s]*)>/gi;
const TAG = /<\/?[a-z!?][^<>]*>/gi;
/** What is left of a tag that never closes (e.g. cut by a chunk boundary) loses its `<`. */
const TAG_START = /<(?=[a-z/!?])/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

export function plainText(text: string): string {
  // Every pattern above holds `<`, `](` or `]:`: text without them has nothing to remove (a
  // bracket alone, as in a citation "[12]", is kept as it is).
  if (!text.includes('<') && !text.includes('](') && !text.includes(']:')) return text;
  return text
    .replace(COMMENT, '')
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .replace(REFERENCE_DEFINITION, '')
    .replace(AUTOLINK, (_m, target: string) => (/^(https?|mailto):/i.test(target) ? target : ''))
    .replace(TAG, '')
    .replace(TAG_START, '');
}
