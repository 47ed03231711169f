/** `node load-child.ts <dir>`: runs autocannon with `<dir>/options.json`, writes `<dir>/result.json`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

const dir = process.argv[2]!;
const options = JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as autocannon.Options;
const cpu0 = process.cpuUsage();
const result = await new Promise<autocannon.Result>((resolve, reject) => autocannon(options, (e, r) => (e ? reject(e) : resolve(r))));
const cpu = process.cpuUsage(cpu0);
writeFileSync(join(dir, 'result.json'), JSON.stringify({ result, cpuMs: (cpu.user + cpu.system) / 1000 }));
