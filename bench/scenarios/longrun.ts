import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { LINK_FIELDS } from '../lib/bodies.js';
import { startChild, type ChildServer } from '../lib/child.js';
import { fetchJson } from '../lib/load.js';
import { pinServer } from '../lib/pin.js';
import { BENCH_KEY } from '../lib/seed.js';
import type { StallDetail } from '../../emulator/performance/loop-monitor.js';
import type { HelperThreads } from '../../emulator/performance/helper-threads.js';
import { SEGMENT_RE, SNAPSHOT, SNAPSHOT_TMP } from '../../emulator/store/file-store.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';

// Weeks of use in one run: N create+simulate pairs (BENCH_LONGRUN_PAIRS, default 100,000)
// against one emulator process (rate limit off, manual clock), then kill -9 and restart, then
// a clean stop and restart, then 25 h of emulator time. Rows:
//
//   longrun.pairs        the pairs themselves (rate), RSS before/after
//   longrun.disk         data-dir bytes at the end of the run vs a fresh snapshot of the same records
//   longrun.rss          RSS growth vs the compacted store's on-disk size
//   longrun.start-kill9  start-up after kill -9 (journal replay) vs after a clean stop
//   longrun.retention    snapshot 25 h later (expired idempotency records gone) vs before
//   longrun.compaction   largest event-loop stall during a compaction of the whole store, and
//                        POST throughput while it runs vs without
//
// Targets (issue 9): disk ≤ 2× snapshot; RSS growth ≤ 3× compacted size; start after kill -9
// ≤ 1.5× after a clean stop; 25 h later ≤ 80%; stall ≤ 50 ms; throughput ≥ 70%.

const PAIRS = Number(process.env.BENCH_LONGRUN_PAIRS ?? 100_000);
const CONNECTIONS = 10;
const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
const linkBody = JSON.stringify(LINK_FIELDS);

/** Bytes of the store's files (a file a compaction removes between listing and stat counts 0). */
const dirBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.includes('ndjson'))
    .reduce((sum, f) => sum + (statSync(join(dir, f), { throwIfNoEntry: false })?.size ?? 0), 0);

/**
 * Waits until no compaction is under way (no snapshot being written, one journal segment).
 * During one, the dir briefly holds the old snapshot, the new one and both segments: by design
 * (a crash at any step leaves a loadable store), so the disk row measures the dir at rest and
 * its note gives the peak sampled during the run.
 */
async function compactionAtRest(dir: string): Promise<void> {
  for (const deadline = performance.now() + 300_000; performance.now() < deadline; await new Promise((ok) => setTimeout(ok, 100))) {
    const files = readdirSync(dir);
    if (!files.includes(SNAPSHOT_TMP) && files.filter((f) => SEGMENT_RE.test(f)).length === 1) return;
  }
  throw new Error(`a compaction in ${dir} did not end within 300 s`);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

interface Metrics {
  rss_bytes: number;
  event_loop_delay_max_ms: number;
  gc_pause_max_ms: number;
  gc_pause_max_kind: string | null;
  gc_pause_total_ms: number;
  cpu_wait_ms: number | null;
  cpu_user_ms: number;
  cpu_system_ms: number;
  event_loop_stall_max: StallDetail | null;
  helper_threads: HelperThreads | null;
}
/** Where the largest gap of the window went (GET /_emulator/metrics, emulator/performance/loop-monitor.ts). */
function stallParts(s: StallDetail | null): string {
  if (!s) return 'largest gap: none';
  const part = (label: string, v: number | null) => (v === null ? '' : `, ${label} ${v.toFixed(1)}`);
  return `largest gap ${s.ms.toFixed(1)} ms: GC ${s.gc_ms.toFixed(1)}${part('ran', s.ran_ms)}${part('waited for a CPU', s.waited_for_cpu_ms)}${part('off the CPU', s.off_cpu_ms)}`;
}
const metrics = async (base: string) => ((await fetchJson(`${base}/_emulator/metrics`)) as { data: Metrics }).data;

async function post(pool: Pool, path: string, body: string): Promise<string> {
  // Every link POST carries a fresh key, as a careful client's do: each leaves an idempotency
  // record (with its response body) that retention must drop 24 h later.
  const res = await pool.request({ method: 'POST', path, headers: { ...headers, 'x-idempotency-key': randomUUID() }, body });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`POST ${path} → ${res.statusCode} ${text.slice(0, 200)}`);
  return text;
}

/** Runs `count` create+simulate pairs over CONNECTIONS workers; returns pairs/s. */
async function pairs(pool: Pool, count: number, log: (m: string) => void): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const link = JSON.parse(await post(pool, '/v1/api/payment-links', linkBody)) as { data: { id: string } };
      await post(pool, `/v1/api/payment-links/${link.data.id}/simulate`, '{}');
      if (i > 0 && i % 20_000 === 0) log(`longrun: ${i} pairs`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return count / ((performance.now() - t0) / 1000);
}

/** POSTs links for `ms` or until `until` settles; returns requests/s. */
async function postRate(pool: Pool, opts: { ms?: number; until?: Promise<unknown> }): Promise<number> {
  let done = false;
  let count = 0;
  const t0 = performance.now();
  if (opts.until) void opts.until.finally(() => (done = true));
  if (opts.ms) setTimeout(() => (done = true), opts.ms);
  const worker = async () => {
    while (!done) {
      await post(pool, '/v1/api/payment-links', linkBody);
      count++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return count / ((performance.now() - t0) / 1000);
}

const ratio = (row: string, field: 'ratio' | 'maxMs', limit: number, atMost: boolean, describe: (r: Row) => string): Target => ({
  row,
  text: `${atMost ? '≤' : '≥'} ${limit}${field === 'maxMs' ? ' ms' : '×'}`,
  check(rows) {
    const r = rows.get(row);
    const v = r?.[field];
    if (v === undefined || !r) return undefined;
    return { actual: describe(r), pass: atMost ? v <= limit : v >= limit };
  },
});

export const longrun: Scenario = {
  name: 'longrun',
  targets: [
    ratio('longrun.disk', 'ratio', 2, true, (r) => `${r.ratio!.toFixed(2)}×`),
    ratio('longrun.rss', 'ratio', 3, true, (r) => `${r.ratio!.toFixed(2)}×`),
    ratio('longrun.start-kill9', 'ratio', 1.5, true, (r) => `${r.ratio!.toFixed(2)}×`),
    ratio('longrun.retention', 'ratio', 0.8, true, (r) => `${(r.ratio! * 100).toFixed(0)}%`),
    ratio('longrun.compaction', 'maxMs', 50, true, (r) => `${r.maxMs!.toFixed(1)} ms`),
    ratio('longrun.compaction-rate', 'ratio', 0.7, false, (r) => `${(r.ratio! * 100).toFixed(0)}%`),
  ],
  async run(ctx: BenchContext): Promise<Row[]> {
    const dataDir = join(ctx.tmpDir, 'longrun');
    mkdirSync(dataDir, { recursive: true });
    const args = [join(ctx.root, 'bin', 'svc.js'), 'emulator', 'start', '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--clock', 'manual', '--data-dir', dataDir];
    // The compaction row judges the emulator's own stalls: keep the load off its CPU (lib/pin.ts).
    const pin = pinServer();
    const pinNote = pin?.note ?? 'not pinned (taskset missing or one CPU): stalls include waiting for the load generator';
    const [command, commandArgs] = pin ? pin.wrap(process.execPath, args) : [process.execPath, args];
    const start = () => startChild<{ base_url: string }>(command, commandArgs, ctx.root);
    const rows: Row[] = [];
    let emulator: ChildServer<{ base_url: string }> | undefined = await start();
    let pool = new Pool(emulator.info.base_url, { connections: CONNECTIONS });
    try {
      const base = () => emulator!.info.base_url;
      const rssBefore = (await metrics(base())).rss_bytes;
      ctx.log(`longrun: ${PAIRS} create+simulate pairs`);
      let peakBytes = 0;
      const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, dirBytes(dataDir))), 250);
      const rate = await pairs(pool, PAIRS, ctx.log).finally(() => clearInterval(sampler));
      const run = await metrics(base());
      const rssAfter = run.rss_bytes;
      await compactionAtRest(dataDir);
      const runBytes = dirBytes(dataDir);
      rows.push({ id: 'longrun.pairs', label: `long run: ${PAIRS} link+simulate pairs`, rate, note: `pairs/s; RSS ${mb(rssBefore)} → ${mb(rssAfter)}; largest event-loop stall of the whole run ${run.event_loop_delay_max_ms.toFixed(1)} ms (${stallParts(run.event_loop_stall_max)})` });

      // A fresh snapshot of exactly the records the run made (no load meanwhile).
      await fetchJson(`${base()}/_emulator/store/compact`, { method: 'POST' });
      const snapshotBytes = statSync(join(dataDir, SNAPSHOT)).size;
      rows.push({ id: 'longrun.disk', label: 'long run: data dir / fresh snapshot', ratio: runBytes / snapshotBytes, note: `${mb(runBytes)} at the end of the run (no compaction running), snapshot ${mb(snapshotBytes)}; peak during the run ${mb(peakBytes)} (${(peakBytes / snapshotBytes).toFixed(2)}×: during a compaction the old and new snapshots are both on disk)` });
      rows.push({ id: 'longrun.rss', label: 'long run: RSS growth / compacted store', ratio: (rssAfter - rssBefore) / snapshotBytes, note: `+${mb(rssAfter - rssBefore)} vs ${mb(snapshotBytes)} on disk` });

      // Compaction of the whole store under POST load, against the same load without it.
      const without = await postRate(pool, { ms: 3000 });
      await fetchJson(`${base()}/_emulator/metrics/reset`, { method: 'POST' });
      const compaction = fetchJson(`${base()}/_emulator/store/compact`, { method: 'POST' });
      const during = await postRate(pool, { until: compaction });
      await compaction;
      const m = await metrics(base());
      rows.push({ id: 'longrun.compaction', label: 'long run: compaction, largest event-loop stall', maxMs: m.event_loop_delay_max_ms, note: `whole store under POST load, ${pinNote}${m.helper_threads ? ` (its ${m.helper_threads.threads} other threads at nice ${m.helper_threads.nice})` : ''}; longest GC pause ${m.gc_pause_max_ms.toFixed(1)} ms (${m.gc_pause_max_kind}), GC total ${m.gc_pause_total_ms.toFixed(0)} ms; waiting for a CPU ${m.cpu_wait_ms ?? 'n/a'} ms, CPU ${m.cpu_user_ms + m.cpu_system_ms} ms; ${stallParts(m.event_loop_stall_max)}` });
      rows.push({ id: 'longrun.compaction-rate', label: 'long run: POST rate during compaction / without', ratio: during / without, note: `${during.toFixed(0)} vs ${without.toFixed(0)} req/s` });

      // Some journal to replay, then kill -9; restart; clean stop; restart.
      await pairs(pool, Math.min(PAIRS, 5000), () => {});
      await pool.close();
      const exited = once(emulator.child, 'exit');
      emulator.child.kill('SIGKILL');
      await exited;
      emulator = await start();
      const afterKill = emulator.readyMs;
      await emulator.stop();
      emulator = await start();
      const afterStop = emulator.readyMs;
      rows.push({ id: 'longrun.start-kill9', label: 'long run: start-up after kill -9 / after clean stop', ratio: afterKill / afterStop, note: `${afterKill.toFixed(0)} vs ${afterStop.toFixed(0)} ms` });

      // 25 h of emulator time: the idempotency records (with their response bodies) expire.
      pool = new Pool(emulator.info.base_url, { connections: CONNECTIONS });
      await fetchJson(`${base()}/_emulator/store/compact`, { method: 'POST' });
      const before = statSync(join(dataDir, SNAPSHOT)).size;
      await fetchJson(`${base()}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"25h"}' });
      await fetchJson(`${base()}/_emulator/store/compact`, { method: 'POST' });
      const later = statSync(join(dataDir, SNAPSHOT)).size;
      rows.push({ id: 'longrun.retention', label: 'long run: store 25 h later / before', ratio: later / before, note: `${mb(later)} vs ${mb(before)}` });
    } finally {
      await pool.close().catch(() => {});
      await emulator?.stop();
      pin?.release();
    }
    return rows;
  },
};
