/**
 * Markdown uploads for the load scenarios, and an uploader that runs in a process and session of
 * its own, as clients on other machines do: Linux schedules each session as one group, so the
 * uploaders' CPU (building and sending 1 MB bodies) competes with the server's, not with the
 * probes of the process that started them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from './child.js';
import { BENCH_DIR } from './panya.js';

const MEGABYTE = 1 << 20;

/** One megabyte of markdown: headed sections of the words of `text` (deterministic). */
export function markdownMegabyte(text: string): string {
  const words = text.slice(0, 400_000).match(/[a-z]{4,}/g)!;
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < MEGABYTE; s++) {
    const section = `## Section ${s}\n\n${Array.from({ length: 120 }, (_, i) => words[(s * 131 + i * 17) % words.length]).join(' ')}.\n\n`;
    parts.push(section);
    size += section.length;
  }
  return parts.join('').slice(0, MEGABYTE);
}

export interface UploadPlan {
  /** The server's base URL. */
  url: string;
  /** A write key of the uploading tenant. */
  key: string;
  /** Uploads in flight (each client sends its next file once the last is answered). */
  clients: number;
  seconds: number;
  /** The file each upload sends (under a heading of its own). */
  body: string;
}

export interface UploadsDone {
  /** Uploads acknowledged. */
  uploaded: number;
  /** The documents they created. */
  ids: string[];
}

/** Starts the uploader process; resolves once it has begun sending, with what it acknowledges when its time is up. */
export function startUploads(plan: UploadPlan): Promise<{ done: Promise<UploadsDone> }> {
  const dir = mkdtempSync(join(tmpdir(), 'panya-uploads-'));
  const planFile = join(dir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const child = spawn(process.execPath, [...NODE_FLAGS, fileURLToPath(import.meta.url), '--uploads', planFile], { cwd: BENCH_DIR, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const killNow = () => child.kill('SIGKILL');
  process.once('exit', killNow);
  const cap = setTimeout(killNow, plan.seconds * 1000 + 60_000);
  let out = '';
  child.stdout!.setEncoding('utf8');
  const started = new Promise<void>((resolve) => child.stdout!.on('data', (s: string) => ((out += s), out.startsWith('go\n') && resolve())));
  const done = new Promise<UploadsDone>((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(cap);
      process.off('exit', killNow);
      rmSync(dir, { recursive: true, force: true });
      if (code === 0) resolve(JSON.parse(out.slice('go\n'.length)) as UploadsDone);
      else reject(new Error(`the uploader exited with ${code}`));
    }),
  );
  return Promise.race([started.then(() => ({ done })), done.then(() => ({ done }))]);
}

/** The uploader process: `clients` loops of uploads for `seconds`; what was acknowledged, as JSON, on stdout. */
async function runUploads(plan: UploadPlan): Promise<UploadsDone> {
  const result: UploadsDone = { uploaded: 0, ids: [] };
  process.stdout.write('go\n');
  const stopAt = performance.now() + plan.seconds * 1000;
  const client = async (c: number) => {
    for (let u = 0; performance.now() < stopAt; u++) {
      const form = new FormData();
      form.append('file', new Blob([`# Upload ${c}-${u}\n\n`, plan.body], { type: 'text/markdown' }), `c${c}-u${u}.md`);
      const res = await fetch(`${plan.url}/api/docs/upload`, { method: 'POST', headers: { authorization: `Bearer ${plan.key}` }, body: form });
      const answer = await res.text();
      if (res.status < 300) {
        result.uploaded++;
        result.ids.push(...(JSON.parse(answer) as { data: { id: string }[] }).data.map((d) => d.id));
      } else await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    }
  };
  await Promise.all(Array.from({ length: plan.clients }, (_, c) => client(c)));
  return result;
}

if (process.argv[2] === '--uploads') {
  const plan = JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as UploadPlan;
  process.stdout.write(JSON.stringify(await runUploads(plan)));
}
