/**
 * The README is a contract: this starts the server exactly as `pnpm start` does (the root
 * package.json script, on a fresh database) and runs every curl example of "Using the API" with
 * the printed key, checking that each gives what the README says. A curl line without an
 * expectation here fails the test, so a new example cannot go unchecked.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const CRON_SECRET = 'readme-cron-secret-0123456789';

/** The curl commands of the "Using the API" block, continuation lines joined. */
function curlExamples(): string[] {
  const section = readme.slice(readme.indexOf('## Using the API'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l.startsWith('curl '));
}

interface Reply {
  status: number;
  body: string;
  json: () => any;
}

function curl(command: string, cwd: string, env: Record<string, string>): Promise<Reply> {
  return new Promise((ok, fail) => {
    execFile('sh', ['-c', `${command} -w '\\n%{http_code}'`], { cwd, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout) => {
      if (error) return fail(error);
      const cut = stdout.lastIndexOf('\n');
      const body = stdout.slice(0, cut);
      ok({ status: Number(stdout.slice(cut + 1)), body, json: () => JSON.parse(body) });
    });
  });
}

/** SSE events of a chat reply, in order. */
function sse(body: string): { event: string; data: any }[] {
  return body
    .split('\n\n')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e): e is { event: string; data: string } => Boolean(e.event && e.data))
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}
const chatText = (events: { event: string; data: any }[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');

describe('README: pnpm start and every curl example', () => {
  let dir: string;
  let child: ReturnType<typeof spawn>;
  let env: Record<string, string>;
  const ids: { doc: string[]; ws: string[]; conv: string[]; msg: string[]; key: string[]; cited: string[] } = { doc: [], ws: [], conv: [], msg: [], key: [], cited: [] };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-readme-'));
    // Exactly the start script, on a free port and a fresh database.
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.replace(/^exec /, '').split(/\s+/);
    expect(start[0]).toBe('node');
    child = spawn(process.execPath, [...start.slice(1), '--port', '0'], {
      cwd: root,
      env: { ...process.env, PANYA_DB: join(dir, 'data', 'panya.db'), PANYA_CRON_SECRET: CRON_SECRET, PANYA_LOG_LEVEL: 'warn' },
    });
    let output = '';
    const { url, key } = await new Promise<{ url: string; key: string }>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no key printed within 60 s:\n${output}`)), 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const url = /listening on (\S+)/.exec(output)?.[1];
        const key = /(svc_live_[0-9A-Za-z]{32})/.exec(output)?.[1];
        if (url && key) (clearTimeout(timer), ok({ url, key }));
      });
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      child.once('exit', (code) => fail(new Error(`server exited with ${code}:\n${output}`)));
    });
    env = { URL: url, KEY: key, PANYA_CRON_SECRET: CRON_SECRET };
    // The files the upload example sends.
    writeFileSync(join(dir, 'faq.md'), '# FAQ\n\nOur store opens at 9:00 every day.');
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    pdf.setTitle('Policy');
    pdf.addPage().drawText('Gift wrapping costs 20 THB.', { x: 50, y: 700, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
    writeFileSync(join(dir, 'policy.pdf'), await pdf.save());
  }, 90_000);

  afterAll(() => {
    child?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each example's check; placeholders (`doc_...`, `ws_...`, `conv_...`, `msg_...`) take ids from earlier examples. */
  const checks: [RegExp, (r: Reply) => void | Promise<void>][] = [
    [/-d '\{"title":"Shipping times"/, (r) => {
      expect(r.status).toBe(201);
      expect(r.json()).toMatchObject({ title: 'Shipping times', status: 'pending' });
      ids.doc.push(r.json().id);
    }],
    [/^curl -s "\$URL\/api\/docs" -H "Authorization: Bearer \$KEY"$/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().data.length).toBeGreaterThan(0);
      expect(r.json().data[0]).not.toHaveProperty('contentMd');
    }],
    [/\/api\/docs\?fields=title,status,contentMd"/, (r) => {
      expect(r.status).toBe(200);
      expect(Object.keys(r.json().data[0]).sort()).toEqual(['contentMd', 'id', 'status', 'title']);
    }],
    [/^curl -s "\$URL\/api\/docs\/doc_\.\.\." /, (r) => expect([r.status, r.json().title]).toEqual([200, 'Shipping times'])],
    [/-X PATCH "\$URL\/api\/docs\/doc_/, (r) => expect([r.status, r.json().title]).toEqual([200, 'Delivery times'])],
    [/-X DELETE "\$URL\/api\/docs\/doc_/, (r) => expect(r.status).toBe(204)],
    [/\/api\/docs\/bulk/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().results.map((x: { status: string }) => x.status)).toEqual(['created', 'updated', 'deleted']);
    }],
    [/-X PUT "\$URL\/api\/docs\/by-external-id\/guides%2Fshipping\.md"/, (r) => {
      expect(r.status).toBe(201);
      expect(r.json()).toMatchObject({ sync: 'created', externalId: 'guides/shipping.md', metadata: { source: 'cms' } });
    }],
    [/^curl -s "\$URL\/api\/docs\/by-external-id\/guides%2Fshipping\.md" -H "Authorization: Bearer \$KEY"$/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json()).toMatchObject({ title: 'Shipping', externalId: 'guides/shipping.md' });
    }],
    [/\/c\/demo\/api\/docs"/, (r) => expect(r.status).toBe(200)],
    [/\/c\/demo\/_w\/default\/api\/docs"/, (r) => expect(r.status).toBe(200)],
    [/^curl -s "\$URL\/api\/workspaces" -H "Authorization: Bearer \$KEY"$/, (r) => expect(r.status).toBe(200)],
    [/"slug":"brand-b"/, (r) => {
      expect(r.status).toBe(201);
      ids.ws.push(r.json().id);
    }],
    [/\/c\/demo\/_w\/brand-b\/api\/docs"/, (r) => expect(r.status).toBe(200)],
    [/-X PATCH "\$URL\/api\/workspaces\/ws_/, (r) => expect([r.status, r.json().name]).toEqual([200, 'Brand Bee'])],
    [/-X DELETE "\$URL\/api\/workspaces\/ws_/, (r) => expect(r.status).toBeLessThan(300)],
    [/\/restore"/, (r) => expect(r.status).toBe(200)],
    [/"query":"how long do refunds take\?"/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().results[0].title).toBe('Returns and refunds policy');
    }],
    [/"query":"คืนเงิน","topK":3/, (r) => {
      expect(r.status).toBe(200);
      const results = r.json().results;
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(3);
      expect(results[0].title).toMatch(/คืนเงิน/);
    }],
    [/api\/answer.*"How long do refunds take\?"/, (r) => {
      expect(r.status).toBe(200);
      const body = r.json();
      expect(body).toMatchObject({ grounded: true, locale: 'en' });
      expect(body.answer).toContain('7 business days');
      expect(body.citations.map((c: { n: number }) => c.n)).toEqual(body.citations.map((_: unknown, i: number) => i + 1));
    }],
    [/api\/answer.*"ค่าส่งไปเชียงใหม่เท่าไหร่"/, (r) => {
      const body = r.json();
      expect(body).toMatchObject({ grounded: true, locale: 'th' });
      expect(body.answer).toContain('60 บาท');
      expect(body.answer).toContain('[1]');
    }],
    [/"query":"How much is shipping to Chiang Mai\?"/, (r) => {
      const events = sse(r.body);
      expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['meta', 'delta', 'citation', 'done']));
      expect(chatText(events)).toContain('60 THB');
      ids.conv.push(events[0]!.data.conversationId);
      ids.msg.push(events[0]!.data.messageId);
    }],
    [/"query":"and to Bangkok\?","conversationId":"conv_\.\.\."/, (r) => {
      const events = sse(r.body);
      expect(chatText(events)).toContain('40 THB');
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { grounded: true } });
    }],
    [/"query":"คืนเงินใช้เวลากี่วัน","locale":"th"/, (r) => {
      const text = chatText(sse(r.body));
      expect(text).toContain('7 วันทำการ');
      expect(text).toContain('[1]');
    }],
    [/\/api\/conversations\/conv_\.\.\.\/messages"/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().data.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    }],
    [/\/api\/messages\/msg_\.\.\.\/feedback"/, (r) => expect([r.status, r.json().feedback?.rating]).toEqual([200, 'down'])],
    [/"subject":"Refund is late"/, (r) => {
      expect(r.status).toBe(201);
      expect(r.json()).toMatchObject({ status: 'open', priority: 'high', conversationId: ids.conv[0] });
    }],
    [/\/api\/inbox"/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().data[0]).toMatchObject({ reason: 'open_ticket', conversationId: ids.conv[0] });
    }],
    [/\/api\/insights\/gaps\?period=30d"/, (r) => {
      expect(r.status).toBe(200);
      expect(Array.isArray(r.json().data)).toBe(true);
      expect(r.json()).toHaveProperty('computedAt');
    }],
    [/\/api\/feedback\?rating=down&hasComment=true"/, (r) => {
      expect(r.status).toBe(200);
      // The thumbs-down given above, with the passages its answer cited.
      const [item] = r.json().data;
      expect(item).toMatchObject({ rating: 'down', comment: 'Not what I asked', messageId: ids.msg[0] });
      expect(item.citations.length).toBeGreaterThan(0);
      ids.cited.push(item.citations[0].documentId);
    }],
    [/\/api\/docs\/doc_\.\.\.\/feedback"/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json()).toMatchObject({ documentId: ids.cited[0], negative: 1 });
    }],
    [/"name":"Nok"/, (r) => expect([r.status, r.json().locale]).toEqual([201, 'th'])],
    [/\/api\/docs\/upload\?wait=true/, (r) => {
      expect(r.status).toBe(201);
      const docs = r.json().data;
      expect(docs.map((d: { title: string }) => d.title)).toEqual(['Policy', 'FAQ']);
      expect(docs.map((d: { status: string }) => d.status)).toEqual(['indexed', 'indexed']);
    }],
    [/\/reindex\?wait=true/, (r) => expect([r.status, r.json().status]).toEqual([200, 'indexed'])],
    [/\/api\/cron\/vectorize-reindex/, (r) => expect(r.status).toBe(200)],
    [/"query":"refund","explain":true/, (r) => {
      expect(r.status).toBe(200);
      const { results, explain } = r.json();
      expect(explain.rrfK).toBeGreaterThan(0);
      const { lexical, semantic, trigram } = results[0].explain.contributions;
      expect(lexical + semantic + trigram).toBeCloseTo(results[0].score, 10);
    }],
    [/^curl -s "\$URL\/api\/api-keys" -H "Authorization: Bearer \$KEY"$/, (r) => {
      expect(r.status).toBe(200);
      expect(r.json().data.length).toBeGreaterThan(0);
      expect(r.body).not.toContain(env.KEY!);
    }],
    [/"name":"CI","scopes":\["read"\]/, (r) => {
      expect(r.status).toBe(201);
      expect(r.json()).toMatchObject({ name: 'CI', scopes: ['read'], workspaceSlug: 'default', key: expect.stringMatching(/^svc_live_/) });
      ids.key.push(r.json().id);
    }],
    [/-X DELETE "\$URL\/api\/api-keys\/key_/, (r) => expect(r.status).toBe(204)],
    [/\/api\/me"/, (r) => expect([r.status, r.json().kind, r.json().tenant.slug]).toEqual([200, 'api_key', 'demo'])],
    [/\/admin\/"/, (r) => {
      expect(r.status).toBe(200);
      expect(r.body).toMatch(/<script type="module" src="assets\/main-\w+\.js"><\/script>/);
    }],
    [/\/healthz"/, (r) => expect([r.status, r.json()]).toEqual([200, { status: 'ok' }])],
    [/\/readyz"/, (r) => expect([r.status, r.json()]).toEqual([200, { status: 'ready', checks: { database: 'ok', migrations: 'ok', ingestWorker: 'ok' } }])],
    [/\/api\/openapi\.json"/, (r) => expect([r.status, r.json().openapi, r.json().paths['/api/search']?.post?.operationId]).toEqual([200, '3.1.0', 'search'])],
    [/\/metrics"/, (r) => {
      expect(r.status).toBe(200);
      // Which worker process answers is the kernel's choice: assert the families, not one process's counts.
      for (const family of ['panya_http_requests_total counter', 'panya_http_request_duration_seconds histogram', 'panya_ingest_queue_depth gauge']) expect(r.body).toContain(`# TYPE ${family}`);
    }],
  ];

  it('runs every curl example and gets what the README says', async () => {
    const examples = curlExamples();
    expect(examples.length).toBeGreaterThan(20);
    for (const example of examples) {
      const check = checks.find(([re]) => re.test(example));
      expect(check, `no check for README example: ${example}`).toBeDefined();
      let command = example;
      if (/\/api\/docs\/bulk/.test(command)) {
        // Two documents of its own: one to update, one to delete.
        for (let i = 0; i < 2; i++) {
          const made = await curl(`curl -s "$URL/api/docs" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"title":"Bulk ${i}","contentMd":"x"}'`, dir, env);
          ids.doc.push(made.json().id);
        }
        command = command.replace('doc_...', ids.doc.at(-2)!).replace('doc_...', ids.doc.at(-1)!);
      } else if (/-X DELETE "\$URL\/api\/docs\/doc_/.test(command)) {
        command = command.replace('doc_...', ids.doc[0]!);
      } else if (/\/api\/docs\/doc_\.\.\.\/feedback/.test(command)) {
        command = command.replace('doc_...', ids.cited[0] ?? 'doc_');
      } else if (/\/reindex/.test(command)) {
        const made = await curl(`curl -s "$URL/api/docs" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"title":"Reindexed","contentMd":"Reindex me."}'`, dir, env);
        command = command.replace('doc_...', made.json().id);
      }
      command = command.replaceAll('doc_...', ids.doc[0] ?? 'doc_').replaceAll('ws_...', ids.ws[0] ?? 'ws_').replaceAll('conv_...', ids.conv[0] ?? 'conv_').replaceAll('msg_...', ids.msg[0] ?? 'msg_').replaceAll('key_...', ids.key[0] ?? 'key_');
      const reply = await curl(command, dir, env);
      try {
        await check![1](reply);
      } catch (error) {
        throw new Error(`README example failed: ${example}\n→ ${reply.status} ${reply.body.slice(0, 600)}\n${(error as Error).message}`);
      }
    }
  }, 180_000);

  it('keeps the demo key across a restart', async () => {
    const again = spawn(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', 'packages/cli/src/bin.ts', 'demo', '--db', join(dir, 'data', 'panya.db')], { cwd: root, env: { ...process.env, PANYA_LOG_LEVEL: 'warn' } });
    let out = '';
    again.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((ok) => again.once('exit', ok));
    expect(out).toContain(env.KEY!);
  }, 60_000);
});
