import { parse } from 'yaml';

/** A Markdown file's YAML front matter, and the body that follows it (what is indexed). */
export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

/** `---` on the first line, YAML, then `---` (or `...`) on a line of its own. */
const FENCE = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits off YAML front matter. A file without it is all body; front matter that is not a YAML
 * mapping throws, naming the problem (the caller reports the file).
 */
export function splitFrontMatter(markdown: string): FrontMatter {
  const match = FENCE.exec(markdown);
  if (!match) return { data: {}, body: markdown };
  // Plain YAML only: no custom tags, and aliases bounded so a small file cannot expand without limit.
  const data: unknown = parse(match[1]!, { schema: 'core', maxAliasCount: 100, prettyErrors: false }) ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('front matter must be a YAML mapping (key: value lines)');
  return { data: toJson(data) as Record<string, unknown>, body: markdown.slice(match[0].length) };
}

/** YAML dates and other non-JSON values become strings, so metadata is plain JSON. */
function toJson(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return value;
}

/**
 * The document fields front matter may set — `title`, `url`, `publicSurfaces` (a list, or one
 * comma-separated string) — and everything else as the document's metadata. Values are checked
 * where the document is validated.
 */
export function documentFieldsFromFrontMatter(data: Record<string, unknown>): { title?: unknown; url?: unknown; publicSurfaces?: unknown; metadata: Record<string, unknown> } {
  const { title, url, publicSurfaces, ...metadata } = data;
  const surfaces = typeof publicSurfaces === 'string' ? publicSurfaces.split(',').map((s) => s.trim()).filter(Boolean) : publicSurfaces;
  return {
    ...(title !== undefined && title !== null ? { title: typeof title === 'number' ? String(title) : title } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(surfaces !== undefined && surfaces !== null ? { publicSurfaces: surfaces } : {}),
    metadata,
  };
}
