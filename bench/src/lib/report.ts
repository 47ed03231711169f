/** Renders results (JSON written by each benchmark) as markdown tables, for the console and the README. */
/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const f = (x: number | null | undefined, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const mbs = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

export function renderSearch(r: Any): string {
  const out: string[] = [];
  for (const size of r.sizes as Any[]) {
    out.push(`#### ${size.chunks.toLocaleString('en-US')} chunks × ${size.dim} d, top-${size.topK} (${size.runs} runs × ${size.cases[0].queries} queries per case)`);
    for (const c of size.cases as Any[]) {
      out.push(`\n*${c.case}* — ${c.chunksInScope.toLocaleString('en-US')} chunks in scope; Recall@10 of Panya's vector channel vs exact scan: **${f(c.recallAt10VectorChannel, 3)}**; floor's FTS rows identical to Panya's lexical channel for ${f(c.floorMatchesPanyaLexical * 100, 0)}% of queries; Orama returned ${f(c.oramaAvgHits, 1)} hits/query on average. Store calls per Panya search: ${Object.entries(c.storeCallsPerTracedSearch ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')} (hydration counts chunks + documents).\n`);
      const rows = Object.entries(c.latencyMs as Record<string, Any>).map(([k, v]) => [k, f(v.p50), f(v.p99), v.runP50s.map((x: number) => f(x, 1)).join(' / ')]);
      rows.push(...Object.entries(c.partsMs as Record<string, Any>).map(([k, v]) => [`↳ ${k}`, f(v.p50), f(v.p99), v.runP50s.map((x: number) => f(x, 1)).join(' / ')]));
      out.push(table(['system', 'p50 ms', 'p99 ms', 'per-run p50'], rows));
      const ra = c.ratios;
      out.push(`\nPanya search()/floor p50 = **${f(ra.panyaSearchOverFloorP50)}×** (target ≤ 2×: ${verdict(ra.panyaSearchOverFloorP50 <= 2)}); retrieve()/floor = ${f(ra.panyaRetrieveOverFloorP50)}×; Orama/Panya p50 = **${f(ra.oramaOverPanyaP50)}×**, p99 = ${f(ra.oramaOverPanyaP99)}×${size.chunks >= 100_000 ? ` (target ≥ 10× at 100k: ${verdict(ra.oramaOverPanyaP50 >= 10)})` : ''}; scan/Panya p50 = ${f(ra.scanOverPanyaP50)}×.`);
    }
    const m = size.memory;
    out.push(`\nMemory: SQLite file ${mbs(m.panya.fileBytesOneWs)} (1 ws) / ${mbs(m.panya.fileBytesTenWs)} (10 ws); Panya process RSS grew ${mbs(m.panya.processRssDeltaBytes)} opening both databases and running a warm pass. Orama: heap+external +${mbs(m.orama.heapPlusExternalDeltaBytes)} (RSS +${mbs(m.orama.rssDeltaBytes)}), built in ${m.orama.buildSeconds} s. SQLite file / Orama heap = **${f(m.sqliteFileOverOramaHeap)}** (target ≤ 0.20: ${verdict(m.sqliteFileOverOramaHeap <= 0.2)}); Panya RSS delta / Orama heap = ${f(m.panya.processRssDeltaBytes / m.orama.heapPlusExternalDeltaBytes)}.${m.panya.graphBytesOneWs != null ? ` HNSW graph files ${mbs(m.panya.graphBytesOneWs)} (1 ws) / ${mbs(m.panya.graphBytesTenWs)} (10 ws; workspaces under ${(m.panya.graphThreshold ?? 0).toLocaleString('en-US')} chunks have none and are searched exactly)${(m.panya.graphBuilds ?? []).map((b: { case: string; chunks: number; seconds: number }) => `, built in ${b.seconds} s for ${b.chunks.toLocaleString('en-US')} chunks (${b.case})`).join('')}; (SQLite file + graph files + RSS growth) / Orama heap = **${f(m.panyaTotalOverOramaHeap)}** (target ≤ 0.20: ${verdict(m.panyaTotalOverOramaHeap <= 0.2)})${m.panyaTotalWithoutTrigramOverOramaHeap != null ? `; without the trigram table (\`PANYA_TRIGRAM_INDEX=off\`, its ${mbs(m.panya.trigramBytesOneWs)} of pages left out) **${f(m.panyaTotalWithoutTrigramOverOramaHeap)}**` : ''}.` : ''}${m.panya.fileBreakdownOneWs && Object.keys(m.panya.fileBreakdownOneWs).length ? ` SQLite file by table/index (1 ws): ${Object.entries(m.panya.fileBreakdownOneWs as Record<string, number>).map(([k, v]) => `${k} ${mbs(v)}`).join(', ')}.` : ''}\n`);
    if (m.restated) out.push(`Restated goal: Panya RSS growth / Orama heap = **${f(m.restated.rssGrowthOverOramaHeap)}** (≤ 0.33: ${verdict(m.restated.rssGrowthOverOramaHeap <= 1 / 3)}); SQLite file / (chunk text + f32 vectors) = **${f(m.restated.fileOverTextAndVectors)}** (≤ 1.3: ${verdict(m.restated.fileOverTextAndVectors <= 1.3)}).\n`);
  }
  return out.join('\n');
}

export function renderHttp(r: Any): string {
  const rows = (r.rows as Any[]).map((x) => [x.target, x.reqPerSec, x.latencyP50Ms, x.latencyP99Ms, x.runsReqPerSec.join(' / '), x.non2xx + x.errors]);
  const out = [table(['target @connections', 'req/s (median)', 'p50 ms', 'p99 ms', 'per-run req/s', 'non-2xx + errors'], rows)];
  const search = (r.rows as Any[]).filter((x) => x.target.startsWith('POST /api/search'));
  const best = search.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a), search[0]);
  if (best) out.push(`\nSearch: best ${best.reqPerSec} req/s at ${best.connections} connections (target ≥ ${r.targets.searchReqPerSec}: ${verdict(best.reqPerSec >= r.targets.searchReqPerSec)}); p99 at 10 connections ${search.find((x: Any) => x.connections === 10)?.latencyP99Ms} ms (target ≤ ${r.targets.searchP99Ms} ms: ${verdict((search.find((x: Any) => x.connections === 10)?.latencyP99Ms ?? Infinity) <= r.targets.searchP99Ms)}).`);
  if (r.chat?.ttfeP50Ms !== undefined) out.push(`\n\`POST /api/chat\` SSE time to first event (sequential, ${r.chat.requests} requests): p50 ${f(r.chat.ttfeP50Ms)} ms, p99 ${f(r.chat.ttfeP99Ms)} ms.`);
  else if (r.chat?.pending) out.push(`\n\`POST /api/chat\`: pending — ${r.chat.pending}.`);
  for (const [k, v] of Object.entries(r.pending ?? {})) out.push(`\n\`${k}\`: pending — ${v}.`);
  return out.join('\n');
}

export function renderIngest(r: Any): string {
  const rows = (r.variants as Any[]).map((v) => [v.variant === 'hash' ? '`hash` embedder' : 'embedding excluded', v.docs, v.chunks, f(v.docsPerSec, 0), f(v.chunksPerSec, 0), f(v.bulkSeconds, 1), f(v.drainSeconds, 1), mbs(v.peakRssBytes), v.runsDocsPerSec.map((x: number) => f(x, 0)).join(' / ')]);
  return table(['variant', 'docs', 'chunks', 'docs/s', 'chunks/s', 'bulk s', 'drain s', 'peak RSS', 'per-run docs/s'], rows);
}

export function renderQuality(r: Any): string {
  const out: string[] = [];
  for (const d of r.datasets as Any[]) {
    out.push(`#### ${d.dataset} (test: ${d.documents} documents, ${d.queries} queries; Panya: ${d.panyaChunks} chunks)\n`);
    out.push(table(['system', 'nDCG@10', 'Recall@100', 'MRR@10', 'Hit@1', 'median ms/query', 'queries w/o hits'], (d.rows as Any[]).map((x) => [x.system, f(x.ndcgAt10, 4), f(x.recallAt100, 4), f(x.mrrAt10, 4), f(x.hitAt1, 4), f(x.medianQueryMs), Number.isNaN(x.queriesWithoutHits) || x.queriesWithoutHits === null ? '–' : x.queriesWithoutHits])));
    out.push('');
  }
  return out.join('\n');
}

export function renderAnswers(r: Any): string {
  const pct = (n: number, d: number) => `${n}/${d} (${Math.round((100 * n) / Math.max(1, d))} %)`;
  const rows = (r.groups as Any[]).map((g) => [g.locale, g.kind, g.cases, pct(g.correct, g.cases), pct(g.peerCorrect, g.cases)]);
  rows.push(['all', '', r.cases, pct(r.correct, r.cases), pct(r.peerCorrect, r.cases)]);
  const misses = (r.outcomes as Any[]).filter((o) => !o.correct).map((o) => `- \`${o.id}\`: ${o.answer}`);
  return [
    table(['locale', 'questions', 'cases', 'Panya extractive correct', 'peer: top passage correct'], rows),
    '',
    `Citations numbered 1..n in order of first use: ${pct(r.numberedInOrder, r.cases)}; answers opening in the requested language: ${pct(r.inRequestedLocale, r.cases)}.`,
    ...(misses.length ? ['', 'Missed:', ...misses] : []),
    ...(r.helpCenter ? ['', renderHelpCenter(r.helpCenter)] : []),
  ].join('\n');
}

function renderHelpCenter(h: Any): string {
  const pct = (n: number, d: number) => `${n}/${d} (${Math.round((100 * n) / Math.max(1, d))} %)`;
  const rows = (h.variants as Any[]).map((v) => [
    v.name,
    pct(v.en.factsCovered, v.en.answerable),
    pct(v.th.factsCovered, v.th.answerable),
    pct(v.en.refused + v.th.refused, v.en.unanswerable + v.th.unanswerable),
    `${v.en.medianChars} / ${v.en.p90Chars} / ${v.en.maxChars}`,
    `${v.th.medianChars} / ${v.th.p90Chars} / ${v.th.maxChars}`,
  ]);
  const o = h.openai;
  const types = ['how-to', 'policy', 'troubleshooting', 'yes-no', 'none'];
  const def = (h.variants as Any[])[0];
  return [
    `### Help-center set: ${h.counts.en ? Object.values(h.counts.en as Record<string, number>).reduce((a, b) => a + b, 0) : 0} English and ${Object.values(h.counts.th as Record<string, number>).reduce((a, b) => a + b, 0)} Thai questions`,
    '',
    table(['generator', 'en facts covered', 'th facts covered', 'unanswerable refused', 'en chars median / p90 / max', 'th chars median / p90 / max'], rows),
    '',
    `By question type (${def.name}): ${types.map((t) => `${t} ${pct(def.byType[t]?.correct ?? 0, def.byType[t]?.cases ?? 0)}`).join(', ')}.`,
    '',
    `OpenAI-compatible generator against the local fake (its answers are canned; the prompt is judged): passages sent hold every fact for ${pct(o.en.factsInPrompt, o.en.answerable)} English and ${pct(o.th.factsInPrompt, o.th.answerable)} Thai answerable questions; the system prompt asks for the question's language for ${pct(o.en.askedInQuestionLanguage, o.en.cases)} / ${pct(o.th.askedInQuestionLanguage, o.th.cases)}; median prompt ${o.en.medianPromptChars} / ${o.th.medianPromptChars} characters (max ${o.en.maxPromptChars} / ${o.th.maxPromptChars}).`,
    ...(def.misses.length ? ['', `Missed (${def.name}):`, ...(def.misses as string[]).map((m) => `- ${m}`)] : []),
  ].join('\n');
}

export function renderScifact(r: Any): string {
  const out: string[] = [];
  if (r.latencyMs) {
    const rows = Object.entries(r.latencyMs as Record<string, Any>).map(([k, v]) => [k, f(v.p50, 3), f(v.p99, 3), v.runP50s.map((x: number) => f(x, 3)).join(' / ')]);
    const ra = r.ratios;
    out.push(
      `${r.documents.toLocaleString('en-US')} documents, ${r.chunks.toLocaleString('en-US')} chunks, ${r.queries} test queries × ${r.runs} runs; default embedder. First search of the workspace (builds its in-memory lexical index) ${f(r.firstSearchMs, 1)} ms; process RSS grew ${mbs(r.searchRssDeltaBytes)} opening the database and running a pass.\n`,
      table(['system', 'p50 ms', 'p99 ms', 'per-run p50'], rows),
      `\nPanya search() p50 ${f(r.latencyMs['panya search()'].p50, 3)} ms (target ≤ 1 ms: ${verdict(r.latencyMs['panya search()'].p50 <= 1)}); search()/matching floor = **${f(ra.searchOverMatchFloorP50)}×** (target ≤ 2×: ${verdict(ra.searchOverMatchFloorP50 <= 2)}), retrieve()/floor = ${f(ra.retrieveOverMatchFloorP50)}×; FTS5 ranked/retrieve() = ${f(ra.fts5RankedOverPanyaRetrieveP50)}×; MiniSearch/search() = ${f(ra.miniSearchOverPanyaSearchP50)}×; Orama/search() = ${f(ra.oramaOverPanyaSearchP50)}×.\n`,
    );
  } else out.push(`In-process part ${r.inProcess ?? 'skipped'}.\n`);
  const http = r.http as Any[];
  const cpu = (x: Any) => (x.serverCpuMsPerRequest === undefined || x.serverCpuMsPerRequest === null ? '–' : f(x.serverCpuMsPerRequest, 3));
  const load = (x: Any) => (x.loadCpuMsPerRequest === undefined ? '–' : f(x.loadCpuMsPerRequest, 3));
  const hits = (x: Any) => (x.cacheHitShare === undefined ? '–' : `${f(100 * x.cacheHitShare, 0)} %`);
  out.push(table(['HTTP target @10 connections', 'workers', 'req/s (median)', 'p50 ms', 'p99 ms', 'per-run req/s', 'server CPU ms/req', 'load generator CPU ms/req', 'answered from cache', 'non-2xx + errors'], http.map((x) => [x.target, x.workers, x.reqPerSec, x.latencyP50Ms, x.latencyP99Ms, x.runsReqPerSec.join(' / '), cpu(x), load(x), hits(x), x.non2xx])));
  const hr = r.httpRatios;
  if (hr) {
    const ratios = Object.entries(hr.searchOverHealthzReqPerSec as Record<string, number>).map(([k, v]) => `${k.replace('workers', 'workers ')}: ${f(v, 3)}`);
    out.push(`\nSearch req/s over /healthz req/s in the same run — ${ratios.join('; ')}. Search req/s, workers 2 over workers 1: ${hr.searchWorkers2OverWorkers1 ?? '–'}×.`);
  }
  for (const target of [...new Set(http.map((x) => x.target as string))].filter((t) => t.startsWith('POST /api/search'))) {
    const best = http.filter((x) => x.target === target).sort((a, b) => b.reqPerSec - a.reqPerSec)[0];
    out.push(`\n${target}, best of the worker counts (${best.workers}): ${best.reqPerSec} req/s (target ≥ 1,500: ${verdict(best.reqPerSec >= 1500)}), p99 ${best.latencyP99Ms} ms (target ≤ 20 ms: ${verdict(best.latencyP99Ms <= 20)}).`);
  }
  out.push(...Object.entries(r.pending ?? {}).map(([k, v]) => `\n${k}: ${v}`));
  return out.join('\n');
}

export const RENDER: Record<string, (r: Any) => string> = { search: renderSearch, http: renderHttp, ingest: renderIngest, quality: renderQuality, answers: renderAnswers, scifact: renderScifact, stall: renderStall, billing: renderBilling, tenants: renderTenants, 'tenants-postgres': renderTenants, gaps: renderGaps };

function renderStall(r: Any): string {
  const lines: string[] = [];
  const q = r.queryCost;
  if (q && !q.skipped) {
    lines.push('| in-process on SciFact | p50 ms | p99 ms | samples |', '|---|---|---|---|');
    lines.push(`| 280-word query (~${q.longQueryChars} chars) | ${q.long.p50} | ${q.long.p99} | ${q.long.samples} |`);
    lines.push(`| ordinary test query | ${q.ordinary.p50} | ${q.ordinary.p99} | ${q.ordinary.samples} |`);
  }
  const l = r.load;
  if (l && !l.skipped) {
    const c = l.configurations as Any[];
    const row = (name: string, f: (x: Any) => string) => `| ${name} | ${c.map(f).join(' | ')} |`;
    const lat = (x: Any) => `${x.p50} / ${x.p99} (max ${x.max}; ${x.failed} of ${x.samples} failed)`;
    lines.push('', `| \`serve --workers N\` | ${c.map((x) => `N = ${x.workers}`).join(' | ')} |`, `|---|${c.map(() => '---').join('|')}|`);
    lines.push(row('load average at start (1 / 5 / 15 min)', (x) => x.loadAverageAtStart.join(' / ')));
    lines.push(row('search req/s, nothing else running (p50 / p99 ms)', (x) => `**${x.searchRps.reqPerSec}** (${x.searchRps.p50} / ${x.searchRps.p99})`));
    lines.push(row('under load: `GET /healthz` p50 / p99 ms', (x) => lat(x.underLoad.healthz)));
    lines.push(row('under load: ordinary `POST /api/search` p50 / p99 ms', (x) => lat(x.underLoad.search)));
    lines.push(row('under load: 280-word query p50 / p99 ms', (x) => lat(x.underLoad.longQuery)));
    lines.push(row('upload requests of 20 × 1 MB acknowledged (p50 ms)', (x) => `${x.underLoad.uploads.acknowledged} of ${x.underLoad.uploads.requests} (${x.underLoad.uploads.p50})`));
    lines.push(row('8,000-page PDF upload: status, ms', (x) => (x.underLoad.pdf ? `${x.underLoad.pdf.status}, ${x.underLoad.pdf.ms}` : '–')));
    lines.push(row('JSON imports of 200 documents (~1 MB) acknowledged (p50 ms)', (x) => (x.underLoad.imports ? `${x.underLoad.imports.documentsAcknowledged / l.importBatch} of ${x.underLoad.imports.requests} (${x.underLoad.imports.p50})` : '–')));
  }
  return lines.join('\n');
}

function renderGaps(r: Any): string {
  return table(
    ['content-gaps job', 'value'],
    [
      ['gap questions clustered (previous period counted against them)', `${r.gapQuestions.toLocaleString('en-US')} (${r.previousPeriodQuestions.toLocaleString('en-US')})`],
      ['clusters kept', r.clustersKept],
      ['job ms (median of runs)', `${f(r.jobMs, 0)} (${r.runsMs.join(' / ')})`],
      ['job CPU ms (median of runs)', r.jobCpuMs === undefined ? '–' : f(r.jobCpuMs, 0)],
      ['questions/s (wall) / per CPU second', `${r.questionsPerSec.toLocaleString('en-US')} / ${r.questionsPerCpuSec?.toLocaleString('en-US') ?? '–'}`],
      ['event loop: longest hold ms / p99 ms', `${f(r.eventLoopMaxMs, 1)} / ${f(r.eventLoopP99Ms, 1)}`],
      ['load average at the end (cores)', `${r.machine?.loadAverageAfter?.[0] ?? '–'} (${r.machine?.nproc ?? '–'})`],
      ['peak RSS', `${Math.round(r.peakRssBytes / 1e6)} MB`],
    ],
  );
}

function renderBilling(r: Any): string {
  const d = r.detector;
  return table(
    ['detector', 'ms'],
    [
      [`first run: ${d.firstRun.written} of ${d.recent} new conversations recorded (${d.historic} counted before)`, f(d.firstRun.ms, 0)],
      ['steady-state scan, window (this and last month)', f(d.steady.windowMs)],
      ['steady-state scan, whole history (peer)', f(d.steady.wholeHistoryMs)],
      ['ratio', `${f(d.steady.ratio, 0)}×`],
    ],
  );
}

function renderTenants(r: Any): string {
  const fs = r.firstSearchMs;
  const rows = [
    ['cold, 20-document workspace', fs.coldSmall],
    ['warm, 20-document workspace', fs.warmSmall],
    ['cold, 1,000-document workspace', fs.coldMedium],
    ['warm, 1,000-document workspace', fs.warmMedium],
  ].map(([k, v]: Any) => [k, f(v.p50), f(v.p99), f(v.max), v.samples]);
  const z = r.zipf;
  // Older records: one node, one latency figure, one window, the build as one number.
  const zipfLine = (w: Any) => {
    const p50s: number[] = [w.latencyP50Ms].flat();
    const p99s: number[] = [w.latencyP99Ms].flat();
    const p99 = Math.max(...p99s);
    return `**${w.reqPerSec} req/s**, p50 ${p50s.join(' / ')} ms, p99 **${p99s.join(' / ')} ms**${p99s.length > 1 ? ' (per node)' : ''} (goals ≥ 600 req/s: ${verdict(w.reqPerSec >= 600)}, p99 ≤ 20 ms: ${verdict(p99 <= 20)}), ${w.non2xx} failed, server CPU ${f(w.serverCpuMsPerRequest, 3)} ms/request${w.gcPauses ? `, the workers' GC pauses ${w.gcPauses.count} (${w.gcPauses.over10ms} over 10 ms), ${w.gcPauses.ms} ms in all` : ''}.`;
  };
  const nodes = r.nodes ?? 1;
  const workers = r.scale.workersPerNode ?? r.scale.workers;
  const build = r.build
    ? r.build.reused
      ? 'reused from the bench cache'
      : `built in ${r.build.seconds} s (${r.build.documentsWrittenThisRun.toLocaleString('en-US')} documents written this run, ${r.build.docsPerSecond} documents/s)`
    : `built in ${r.buildSeconds} s`;
  const serving = r.neverStall?.servingThreads as { cpuMs: number; runQueueMs: number }[] | undefined;
  return [
    `${r.store === 'postgres' ? `PostgreSQL, ${nodes} \`panya serve\` nodes on one database` : 'SQLite'}. ${r.tenants.toLocaleString('en-US')} tenants (${r.scale.small} × 20, ${r.scale.medium} × 1,000, ${r.scale.large} × ${r.scale.largeDocs.toLocaleString('en-US')} documents), ${r.chunks.toLocaleString('en-US')} chunks, ${build}. ${r.store === 'postgres' ? 'Tables and indexes' : 'File'} ${mbs(r.fileBytes)} for ${mbs(r.rawTextBytes)} of text: **${f(r.fileOverText)}×** (goal ≤ 1.5×: ${verdict(r.fileOverText <= 1.5)}); ${r.bytesPerChunk} bytes per chunk of ${r.rawTextPerChunk} bytes of text. Largest: ${Object.entries(r.largestTables as Record<string, number>).map(([k, v]) => `${k} ${mbs(v)}`).join(', ')}.`,
    '',
    table(['search over HTTP, one at a time', 'p50 ms', 'p99 ms', 'max ms', 'samples'], rows),
    '',
    ...(r.coldFirstLexicalSearchMs1000Chunks && r.coldFirstLexicalSearchMs1000Chunks.fromSegments.samples > 0
      ? [
          (() => {
            const c = r.coldFirstLexicalSearchMs1000Chunks;
            return `Cold first lexical search of a 1,000-chunk workspace (a fresh store, in process): from its segments p50 **${f(c.fromSegments.p50)} ms** wall, ${f(c.fromSegmentsCpu.p50)} ms CPU (goal ≤ 10 ms: ${verdict(c.fromSegments.p50 <= 10)}); built from its rows as before segments p50 ${f(c.fromRows.p50)} ms wall, ${f(c.fromRowsCpu.p50)} ms CPU.`;
          })(),
          '',
        ]
      : []),
    ...(r.neverStall
      ? [
          `Never stall: while the tenant uploads 1 MB markdown files (${r.neverStall.filesUploaded} acknowledged in ${r.neverStall.uploadSeconds} s), its own searches p50 ${f(r.neverStall.ownSearchMs.p50)} ms, p99 **${f(r.neverStall.ownSearchMs.p99)} ms** (goal ≤ 100 ms: ${verdict(r.neverStall.ownSearchMs.p99 <= 100)}).` +
            (serving ? ` Meanwhile the serving threads ran ${serving.map((s) => f(s.cpuMs, 0)).join(' + ')} ms on a core and waited ${serving.map((s) => f(s.runQueueMs, 0)).join(' + ')} ms for one (run queue).` : ''),
          '',
        ]
      : []),
    `Zipf traffic, ${nodes > 1 ? `${nodes} nodes × ` : ''}${workers} workers, 10 connections${r.zipfSteady ? ', first window' : ''}: ${zipfLine(z)}` +
      (r.zipfSteady ? ` Then a fresh draw of tenants and queries (the server up a while): ${zipfLine(r.zipfSteady)}` : '') +
      (r.zipfPaced ? ` Then ${r.zipfPaced.offeredReqPerSec} req/s offered open loop (each request when due, latency from then; a third draw): ${zipfLine(r.zipfPaced)}` : '') +
      ` Server RSS ${mbs(r.serverRssBytes.afterStart)} after start, ${mbs(r.serverRssBytes.end)} at the end. Index cache: ${mbs(r.indexCache.bytes)} held of ${mbs(r.indexCache.maxBytes)}, ${r.indexCache.hits} hits, ${r.indexCache.loads} loads in ${f(r.indexCache.loadSeconds, 2)} s.`,
  ].join('\n');
}
