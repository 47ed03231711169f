/** `node load-child.ts <dir>`: runs the load in `<dir>/options.json`, writes `<dir>/result.json`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { LoadSummary } from './load.js';

type Options = autocannon.Options & { sequence?: autocannon.Request[]; pace?: number };
const dir = process.argv[2]!;
const { sequence, pace, ...options } = JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as Options;

const percentile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);

/**
 * Open loop at `rate` requests a second: request i is due at start + i / rate, sent when due
 * whether or not earlier ones were answered, and its latency runs from when it was due, so a
 * server (or client) that falls behind shows in the figures instead of slowing the offered load.
 * autocannon's own rate limit sends each connection's quota back to back at the start of every
 * second and then waits: the server sees bursts at full concurrency, not the rate.
 */
async function openLoop(url: string, requests: autocannon.Request[], rate: number, seconds: number): Promise<LoadSummary> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let inFlight = 0;
  const send = (req: autocannon.Request, due: number) => {
    inFlight++;
    const done = () => {
      inFlight--;
      latencies.push(performance.now() - due);
    };
    const r = request({ host: target.hostname, port: target.port, path: req.path, method: req.method, headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body as string) }, agent, timeout: 10_000 }, (res) => {
      if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
      res.resume();
      res.on('end', done);
    });
    r.on('error', () => {
      errors++;
      inFlight--;
    });
    r.end(req.body as string);
  };
  const start = performance.now();
  const total = Math.floor(rate * seconds);
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      for (; sent < due; sent++) send(requests[sent % requests.length]!, start + (sent * 1000) / rate);
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const stopAt = performance.now() + 10_000;
  while (inFlight > 0 && performance.now() < stopAt) await new Promise((r) => setTimeout(r, 5));
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    reqPerSec: Math.round(latencies.length / seconds),
    requests: latencies.length,
    latencyP50Ms: r2(percentile(sorted, 0.5)),
    latencyP99Ms: r2(percentile(sorted, 0.99)),
    latencyMaxMs: r2(sorted.at(-1) ?? 0),
    non2xx,
    errors: errors + inFlight,
  };
}

async function closedLoop(): Promise<LoadSummary> {
  if (sequence) {
    // autocannon's `requests` is replayed whole by every connection (each from its start, each
    // building every request first): the connections would send the same requests side by side.
    // One request built as it is sent, from one sequence the connections share, sends it once.
    let next = 0;
    options.requests = [{ setupRequest: (req) => ({ ...req, ...sequence[next++ % sequence.length] }) }];
  }
  const r = await new Promise<autocannon.Result>((resolve, reject) => autocannon(options, (e, res) => (e ? reject(e) : resolve(res))));
  return { reqPerSec: r.requests.average, requests: r.requests.total, latencyP50Ms: r.latency.p50, latencyP99Ms: r.latency.p99, latencyMaxMs: r.latency.max, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

const cpu0 = process.cpuUsage();
const result = pace ? await openLoop(String(options.url), sequence ?? [], pace, Number(options.duration)) : await closedLoop();
const cpu = process.cpuUsage(cpu0);
writeFileSync(join(dir, 'result.json'), JSON.stringify({ result, cpuMs: (cpu.user + cpu.system) / 1000 }));
