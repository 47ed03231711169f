import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every package's public surface as a list of names, snapshotted: adding, removing or renaming an
 * export is a visible diff in `__snapshots__/public-exports.txt` (update it with `vitest -u` when
 * the change is meant). Read from each entry point's source, so types count as much as values.
 */
const packages = fileURLToPath(new URL('../../', import.meta.url));

/** The names a module exports, from its source: `export { a, type B, c as d }`, and declarations. */
export function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (name) names.push(name);
    }
  }
  for (const m of source.matchAll(/^export\s+\*\s+as\s+(\w+)/gm)) names.push(m[1]!);
  for (const m of source.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:class|function\*?|const|let|interface|type|enum)\s+(\w+)/gm)) names.push(m[1]!);
  return [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en'));
}

/** Each package's entry points (`exports` of its package.json that have a TypeScript source). */
function entryPoints(): { entry: string; file: string }[] {
  const out: { entry: string; file: string }[] = [];
  for (const dir of readdirSync(packages).sort()) {
    const manifest = join(packages, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, unknown> };
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['@panya/source'] : undefined;
      if (typeof source === 'string' && source.endsWith('.ts')) out.push({ entry: `${pkg.name}${subpath.slice(1)}`, file: join(packages, dir, source) });
    }
  }
  return out;
}

describe('public exports', () => {
  const entries = entryPoints();

  it('finds the entry points of every package', () => {
    expect(entries.map((e) => e.entry)).toEqual(expect.arrayContaining(['@panya/core', '@panya/core/rows', '@panya/core/testing', '@panya/adapter-express', '@panya/store-sqlite', '@panya/edge']));
  });

  it('each package index names its exports (no export *)', () => {
    const wildcards = entries.filter((e) => !e.entry.endsWith('/testing')).filter((e) => /^export\s+(type\s+)?\*\s+from/m.test(readFileSync(e.file, 'utf8')));
    expect(wildcards.map((e) => e.entry)).toEqual([]);
  });

  it('keeps internals out of @panya/core', () => {
    const core = exportedNames(readFileSync(entries.find((e) => e.entry === '@panya/core')!.file, 'utf8'));
    for (const internal of ['hashApiKey', 'RRF_K', 'THAI_FUNCTION_WORDS']) expect(core).not.toContain(internal);
  });

  it('matches the recorded surface of every package', async () => {
    const listing = entries.map((e) => `## ${e.entry}\n${exportedNames(readFileSync(e.file, 'utf8')).join('\n')}\n`).join('\n');
    await expect(listing).toMatchFileSnapshot('__snapshots__/public-exports.txt');
  });

  it('reads names from every form of export', () => {
    expect(exportedNames("export { a, type B, c as d } from './x.js';\nexport type { E } from './y.js';\nexport * as tables from './t.js';\nexport class F {}\nexport async function g() {}\nexport interface H {}\nexport type I = 1;\nexport const J = 1;")).toEqual(['a', 'B', 'd', 'E', 'F', 'g', 'H', 'I', 'J', 'tables']);
  });
});
