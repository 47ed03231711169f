import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Relative imports of each module, type-only ones included (they couple modules just the same). */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms), ...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]!);
    const targets = specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
    edges.set(file, targets);
  }
  return edges;
}

function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'visiting') found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(SRC, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

/*
 * Core's folders and which may import which. A folder is one of:
 * - the kernel: top-level modules (errors, bounds, messages, plans, context, …) and `text/`,
 *   `schemas/` (the wire shapes every door shares), `audiences/` (who may read which document);
 * - a contract: `ports/` (the `Store` and what every domain shares) and each domain's `ports/`:
 *   interfaces stores and providers implement, with their records. Any folder may import any
 *   contract; a contract imports only the kernel and other contracts;
 * - a domain: its rules and services, importing only the domains `DOMAINS` lists for it;
 * - an entry file of a domain (`operations.ts`, `*-operations.ts`): the domain's rows of the
 *   operation table, declared with `operations/` (the kit);
 * - the layers above: `rows/` (the storage kit), `api/` (the pipeline every door calls and the
 *   assembled table), `engine.ts` / `index.ts` (the composition root), `testing/`.
 * Imports point inward: to a lower rank, or sideways within one rank as the table allows.
 */
const KERNEL_FOLDERS = ['text', 'schemas', 'audiences'];
const CONTRACT_FOLDERS = ['ports'];
const RANK = { kernel: 0, contract: 0, domain: 1, entry: 2, api: 3, root: 4, testing: 5 } as const;
const UPPER: Record<string, keyof typeof RANK> = { operations: 'entry', rows: 'entry', api: 'api', testing: 'testing' };

/** Each domain and the domains whose rules and services it may import (inner ones). */
export const DOMAINS: Record<string, readonly string[]> = {
  audit: [],
  privacy: ['audit'],
  tenancy: ['audit', 'privacy'],
  billing: ['audit', 'tenancy'],
  search: ['privacy', 'tenancy', 'billing'],
  knowledge: ['audit', 'tenancy', 'search'],
  hostnames: ['audit', 'privacy', 'tenancy', 'search', 'knowledge'],
  insights: ['privacy', 'tenancy'],
  answers: ['audit', 'privacy', 'tenancy', 'billing', 'search', 'knowledge', 'hostnames', 'insights'],
  support: ['audit', 'tenancy', 'billing', 'knowledge', 'hostnames', 'answers'],
  jobs: ['audit', 'privacy', 'tenancy', 'billing', 'search', 'knowledge', 'hostnames', 'insights', 'answers', 'support'],
};

interface Unit {
  kind: keyof typeof RANK;
  /** The domain a file belongs to (its rules, services, contract or entries). */
  domain?: string;
}

function unitOf(path: string): Unit {
  const parts = path.split('/');
  if (parts.length === 1) return { kind: path === 'engine.ts' || path === 'index.ts' ? 'root' : 'kernel' };
  const [top] = parts as [string];
  if (KERNEL_FOLDERS.includes(top)) return { kind: 'kernel' };
  if (CONTRACT_FOLDERS.includes(top)) return { kind: 'contract' };
  if (UPPER[top]) return { kind: UPPER[top] };
  if (!(top in DOMAINS)) throw new Error(`${path}: folder ${top} is not declared in the module graph test`);
  if (parts[1] === 'ports') return { kind: 'contract', domain: top };
  if (/(^|-)operations\.ts$/.test(parts.at(-1)!)) return { kind: 'entry', domain: top };
  return { kind: 'domain', domain: top };
}

/** Imports that point outward, as `from → to` (paths relative to src). */
function upwardImports(edges: Map<string, string[]>, src: string): string[] {
  const found: string[] = [];
  for (const [file, targets] of edges) {
    const from = unitOf(relative(src, file));
    for (const target of targets) {
      const to = unitOf(relative(src, target));
      const outward = RANK[to.kind] > RANK[from.kind];
      const acrossDomains = from.domain !== undefined && to.domain !== undefined && from.domain !== to.domain && to.kind !== 'contract' && !DOMAINS[from.domain]!.includes(to.domain);
      if (outward || acrossDomains) found.push(`${relative(src, file)} → ${relative(src, target)}`);
    }
  }
  return found;
}

describe('core layers', () => {
  it('imports only inward: every folder as declared', () => {
    expect(upwardImports(graph(), SRC)).toEqual([]);
  });

  it('declares every folder of core', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const declared = [...KERNEL_FOLDERS, ...CONTRACT_FOLDERS, ...Object.keys(UPPER), ...Object.keys(DOMAINS)];
    expect(folders.filter((f) => !declared.includes(f))).toEqual([]);
  });

  it('names every folder of core in docs/architecture.md', () => {
    const doc = readFileSync(resolve(SRC, '../../../docs/architecture.md'), 'utf8');
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !doc.includes(`\`${f}/\``))).toEqual([]);
  });

  it('declares domains without a cycle', () => {
    const order: string[] = [];
    const visit = (domain: string, path: string[]) => {
      expect(path, `cycle ${[...path, domain].join(' → ')}`).not.toContain(domain);
      if (order.includes(domain)) return;
      for (const inner of DOMAINS[domain]!) visit(inner, [...path, domain]);
      order.push(domain);
    };
    for (const domain of Object.keys(DOMAINS)) visit(domain, []);
    expect(order).toHaveLength(Object.keys(DOMAINS).length);
  });

  it('finds an outward import when there is one', () => {
    const src = '/src';
    const edges = (from: string, to: string) => new Map([[`${src}/${from}`, [`${src}/${to}`]]]);
    expect(upwardImports(edges('tenancy/workspaces.ts', 'answers/chat.ts'), src)).toEqual(['tenancy/workspaces.ts → answers/chat.ts']);
    expect(upwardImports(edges('billing/ports/billing.ts', 'billing/catalog.ts'), src)).toHaveLength(1);
    expect(upwardImports(edges('ports/store.ts', 'hostnames/rules.ts'), src)).toHaveLength(1);
    expect(upwardImports(edges('billing/reporter.ts', 'jobs/types.ts'), src)).toHaveLength(1);
    expect(upwardImports(edges('search/search.ts', 'api/api.ts'), src)).toHaveLength(1);
    expect(upwardImports(edges('knowledge/documents.ts', 'operations/types.ts'), src)).toHaveLength(1);
    expect(upwardImports(edges('errors.ts', 'tenancy/plans.ts'), src)).toHaveLength(1);
    // Inward, sideways within the table, and any domain's contract: allowed.
    expect(upwardImports(edges('answers/chat.ts', 'search/search.ts'), src)).toEqual([]);
    expect(upwardImports(edges('tenancy/workspaces.ts', 'answers/ports/conversations.ts'), src)).toEqual([]);
    expect(upwardImports(edges('ports/store.ts', 'hostnames/ports/record.ts'), src)).toEqual([]);
    expect(upwardImports(edges('knowledge/operations.ts', 'operations/types.ts'), src)).toEqual([]);
    expect(() => unitOf('newfolder/x.ts')).toThrow(/not declared/);
  });
});

describe('core module graph', () => {
  it('has no import cycle anywhere in core', () => {
    expect(cycles(graph())).toEqual([]);
  });

  it('has no import cycles between the ports', () => {
    const ports = cycles(graph()).filter((cycle) => cycle.every((f) => f.startsWith('ports/')));
    expect(ports).toEqual([]);
  });

  it('has no import cycle between the document service and the ingest worker', () => {
    const between = cycles(graph()).filter((cycle) => cycle.includes('knowledge/documents.ts') && cycle.includes('knowledge/ingest-worker.ts'));
    expect(between).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toHaveLength(1);
  });
});
