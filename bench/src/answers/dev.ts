import { runHelpCenter } from './helpcenter-run.js';
const r = await runHelpCenter((l) => console.log(l));
for (const v of r.variants) console.log(v.name, JSON.stringify({ en: v.en, th: v.th }), JSON.stringify(v.byType));
console.log(JSON.stringify(r.openai));
if (process.env.MISSES) for (const v of r.variants.slice(0, 1)) console.log(v.misses.join('\n'));
