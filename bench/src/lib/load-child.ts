/** `node load-child.ts <dir>`: runs autocannon with `<dir>/options.json`, writes `<dir>/result.json`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

const dir = process.argv[2]!;
const { sequence, ...options } = JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as autocannon.Options & { sequence?: autocannon.Request[] };
if (sequence) {
  // autocannon's `requests` is replayed whole by every connection (each from its start, each
  // building every request first): the connections would send the same requests side by side.
  // One request built as it is sent, from one sequence the connections share, sends it once.
  let next = 0;
  options.requests = [{ setupRequest: (req) => ({ ...req, ...sequence[next++ % sequence.length] }) }];
}
const cpu0 = process.cpuUsage();
const result = await new Promise<autocannon.Result>((resolve, reject) => autocannon(options, (e, r) => (e ? reject(e) : resolve(r))));
const cpu = process.cpuUsage(cpu0);
writeFileSync(join(dir, 'result.json'), JSON.stringify({ result, cpuMs: (cpu.user + cpu.system) / 1000 }));
