/** Child entry: builds (or finds cached) the Panya database for one corpus size and workspace count. */
import { SearchCorpus } from './lib/corpus.js';
import { panyaDb } from './lib/panya.js';

const [n, ws] = process.argv.slice(2).map(Number);
if (!n || (ws !== 1 && ws !== 10)) throw new Error('usage: build.ts <chunks> <1|10>');
const built = await panyaDb(new SearchCorpus(n), ws, (m) => process.stderr.write(m + '\n'));
process.stderr.write(`  ${n} chunks / ${ws} ws ready${built.buildSeconds === null ? ' (cached)' : ''}: ${built.path}\n`);
