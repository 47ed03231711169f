/**
 * The content-gaps job on a large question log: `questions` gap questions (refused, weakly
 * grounded, thumbed down) of the last 30 days and a tenth as many of the 30 days before, English
 * and Thai, drawn from `topics` topics by Zipf (each topic a few content words phrased through
 * several question templates, with filler words and personal data mixed in). Times the job
 * (`content-gaps`, which clusters, finds each cluster's nearest document and stores the result)
 * and watches the event loop meanwhile: the longest the job held the thread is what a request
 * arriving during it could wait. CPU time is reported beside wall time: on a shared machine the
 * wall time and the longest hold grow with the load average (recorded with the result). argv: [questions] [topics]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEngine, type Store } from '@panya/core';
import { engineInternals, makeDocument } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { Rng, Zipf } from './lib/prng.js';
import { median } from './lib/stats.js';

const QUESTIONS = Number(process.argv[2] ?? 50_000);
const TOPICS = Number(process.argv[3] ?? 400);
const RUNS = 3;

const EN_WORDS = 'invoice refund password account export report payment shipping delivery order coupon discount voucher subscription plan upgrade downgrade cancel receipt printer tablet barcode scanner inventory stock supplier menu recipe loyalty points member branch staff shift schedule payroll tax vat wifi offline sync backup restore language currency table reservation kitchen display drawer cash card transfer qr promptpay apple google pay wallet gift card tip service charge'.split(' ');
const TH_WORDS = 'ใบเสร็จ คืนเงิน รหัสผ่าน บัญชี ส่งออก รายงาน ชำระเงิน จัดส่ง คำสั่งซื้อ คูปอง ส่วนลด สมาชิก แพ็กเกจ อัปเกรด ยกเลิก เครื่องพิมพ์ แท็บเล็ต บาร์โค้ด สต็อก สินค้า ซัพพลายเออร์ เมนู สูตร แต้ม สาขา พนักงาน กะ เงินเดือน ภาษี ไวไฟ ออฟไลน์ สำรองข้อมูล กู้คืน ภาษา สกุลเงิน โต๊ะ จอง ครัว ลิ้นชัก เงินสด บัตร โอนเงิน พร้อมเพย์ กระเป๋าเงิน บัตรของขวัญ ทิป ค่าบริการ'.split(' ');
const EN_TEMPLATES = ['How do I {a} {b}?', 'Can I {a} the {b} {c}?', 'Why does {a} {b} not work?', 'Is there a way to {a} {b} with {c}?', '{a} {b} problem', 'help with {a} and {b}', 'where can I find {a} {b} settings'];
const TH_TEMPLATES = ['{a}{b}ยังไง', 'ทำไม{a}{b}ไม่ได้', 'อยาก{a}{b}ค่ะ', '{a}{b}กับ{c}ได้ไหม', 'มีวิธี{a}{b}ไหมครับ', '{a} {b} ใช้ไม่ได้'];
const PERSONAL = [' my email is somchai@example.co.th', ' โทร 081-234-5678', ' บัตรประชาชน 1101700203166', ''];

function topicWords(rng: Rng, words: string[]): string[] {
  const picked = new Set<string>();
  while (picked.size < 3) picked.add(words[rng.int(0, words.length - 1)]!);
  return [...picked];
}

const rng = new Rng('gaps');
const topics = Array.from({ length: TOPICS }, (_, i) => (i % 3 === 2 ? { thai: true, words: topicWords(rng, TH_WORDS) } : { thai: false, words: topicWords(rng, EN_WORDS) }));
const zipf = new Zipf(TOPICS);

function question(): string {
  const topic = topics[zipf.sample(rng)]!;
  const templates = topic.thai ? TH_TEMPLATES : EN_TEMPLATES;
  const [a, b, c] = topic.words;
  const text = templates[rng.int(0, templates.length - 1)]!.replace('{a}', a!).replace('{b}', b!).replace('{c}', c!);
  return rng.next() < 0.05 ? text + PERSONAL[rng.int(0, PERSONAL.length - 1)] : text;
}

const store: Store = openSqliteStore({ path: ':memory:' });
const engine = createEngine({ store });
const { tenant, defaultWorkspace } = (await engine.tenancy.createTenant({ slug: 'bench', plan: 'business' }))._unsafeUnwrap();
const scope = { tenantId: tenant.id, workspaceId: defaultWorkspace.id };
// A small knowledge base for the nearest-document lookups.
for (let i = 0; i < 40; i++) {
  const words = topicWords(rng, i % 2 ? TH_WORDS : EN_WORDS);
  await store.documents.insert(makeDocument(tenant.id, defaultWorkspace.id, { title: words.join(' '), contentMd: `# ${words.join(' ')}\n\n${words.join(' ')} ${words.join(' ')}.` }));
}
await engine.ingest.drain();

const now = Date.now();
const day = 86_400_000;
const outcomes = ['refused', 'low_evidence', 'answered'] as const;
let seq = 0;
const insert = async (count: number, fromDaysAgo: number) => {
  for (let i = 0; i < count; i++) {
    const outcome = outcomes[rng.int(0, 1)]!;
    await store.questions.record({
      id: `qst_${String(seq++).padStart(10, '0')}`,
      ...scope,
      question: question(),
      source: 'chat',
      outcome,
      topScore: null,
      groundedSentences: 0,
      sentences: 1,
      conversationId: null,
      messageId: null,
      citations: [],
      thumbsDown: rng.next() < 0.05,
      handedOff: false,
      createdAt: new Date(now - fromDaysAgo * day + Math.floor(rng.next() * 29 * day)).toISOString(),
    });
  }
};
let t = performance.now();
await insert(Math.round(QUESTIONS / 10), 60);
await insert(QUESTIONS, 30);
log(`logged ${QUESTIONS} + ${Math.round(QUESTIONS / 10)} questions in ${Math.round(performance.now() - t)} ms`);

const runs: { ms: number; cpuMs: number; loopMaxMs: number; loopP99Ms: number; clusters: number; questions: number }[] = [];
for (let r = 0; r < RUNS; r++) {
  await store.questions.requestGaps(scope, '30d', new Date().toISOString(), new Date().toISOString());
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  t = performance.now();
  const cpu = process.cpuUsage();
  const run = (await engine.jobs.run('content-gaps', { budgetMs: 600_000 }))._unsafeUnwrap();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  loop.disable();
  const stored = await store.questions.getGaps(scope, '30d');
  if (!run.ran || !stored) throw new Error('the job did not run');
  runs.push({ ms, cpuMs: (used.user + used.system) / 1000, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6, clusters: stored.clusters.length, questions: stored.questions });
  log(`run ${r + 1}: ${Math.round(ms)} ms, event loop max ${(loop.max / 1e6).toFixed(1)} ms`);
}
const { clusters } = (await store.questions.getGaps(scope, '30d'))!;
const top = (clusters as { count: number; examples: string[] }[]).slice(0, 5).map((c) => ({ count: c.count, example: c.examples[0] }));
await engineInternals(engine).worker.stop();
await engine.close();
emit({
  questions: QUESTIONS,
  previousPeriodQuestions: Math.round(QUESTIONS / 10),
  topics: TOPICS,
  runs: RUNS,
  gapQuestions: runs[0]!.questions,
  clustersKept: runs[0]!.clusters,
  jobMs: median(runs.map((r) => r.ms)),
  jobCpuMs: median(runs.map((r) => r.cpuMs)),
  questionsPerCpuSec: Math.round(runs[0]!.questions / (median(runs.map((r) => r.cpuMs)) / 1000)),
  questionsPerSec: Math.round(runs[0]!.questions / (median(runs.map((r) => r.ms)) / 1000)),
  eventLoopMaxMs: Math.max(...runs.map((r) => r.loopMaxMs)),
  eventLoopP99Ms: median(runs.map((r) => r.loopP99Ms)),
  runsMs: runs.map((r) => Math.round(r.ms)),
  largest: top,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
});
