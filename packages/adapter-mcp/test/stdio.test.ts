import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanyaMcpServer, runStdioServer } from '../src/index.js';
import { ARTICLES, callTool, makeEngine, makeTenant, seed, textOf } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

describe('MCP server without HTTP (stdio hosts)', () => {
  let engine: Engine;
  let acme: Awaited<ReturnType<typeof makeTenant>>;

  beforeAll(async () => {
    engine = makeEngine();
    acme = await makeTenant(engine, 'acme');
    await seed(engine, acme.ctx, ARTICLES);
  });

  afterAll(async () => {
    await engine.close();
  });

  it('serves the tools and prompts to a client over a linked in-memory transport, as the operator', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createPanyaMcpServer(engine, acme.ctx);
    await server.connect(serverSide);
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(clientSide);

    expect((await client.listTools()).tools).toHaveLength(4);
    expect((await client.listPrompts()).prompts).toHaveLength(2);
    const answer = await callTool(client, 'svc_answer', { query: 'How much is shipping to Chiang Mai?' });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toContain('Shipping times');

    // The operator's calls are recorded (no key) and not held to a key's hourly limit.
    for (let i = 0; i < 65; i++) expect((await callTool(client, 'svc_list_docs', { limit: 1 })).isError).toBeFalsy();
    const events = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    expect(events.filter((e) => e.tool === 'svc_list_docs')).toHaveLength(65);
    expect(events.every((e) => e.keyId === null && e.kind === 'mcp_tool')).toBe(true);
    await client.close();
  });

  it('turns an unexpected failure into a tool error and keeps serving', async () => {
    const failures: string[] = [];
    // The search fails deep inside the pipeline; the other tools still run.
    const api = Object.assign((...args: Parameters<Engine['api']>) => (args[0] === 'svc_search' ? Promise.reject(new Error('disk on fire')) : engine.api(...args)), engine.api);
    const broken = { ...engine, api } as Engine;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createPanyaMcpServer(broken, acme.ctx, { onError: (_e, tool) => failures.push(tool) }).connect(serverSide);
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await callTool(client, 'svc_search', { query: 'refund' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain('disk on fire');
    expect(result._meta?.['panya/error']).toEqual({ code: 'internal' });
    expect(failures).toEqual(['svc_search']);
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    await client.close();
  });

  it('runStdioServer speaks newline-delimited JSON-RPC on the given streams and ends with its input', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const running = await runStdioServer(engine, acme.ctx, { stdin, stdout });
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
        buffered = buffered.slice(nl + 1);
      }
    });
    const next = async (id: number) => {
      for (let i = 0; i < 200 && !lines.some((l) => l.id === id); i++) await new Promise((r) => setTimeout(r, 10));
      return lines.find((l) => l.id === id) as { result: Record<string, any> };
    };
    const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);

    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
    expect((await next(1)).result.serverInfo.name).toBe('panya');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'svc_search', arguments: { query: 'warranty' } } });
    const search = (await next(2)).result;
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent.results[0].title).toBe('Warranty');

    stdin.end();
    await running.closed;
  });
});
