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
    const targets = [...source.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
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

describe('core module graph', () => {
  it('has no import cycles between the ports', () => {
    const ports = cycles(graph()).filter((cycle) => cycle.every((f) => f.startsWith('ports/')));
    expect(ports).toEqual([]);
  });

  it('has no import cycle between the document service and the ingest worker', () => {
    const between = cycles(graph()).filter((cycle) => cycle.includes('services/documents.ts') && cycle.includes('services/ingest-worker.ts'));
    expect(between).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toHaveLength(1);
  });
});
