import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { Load, fetchJson, measurePaired } from '../lib/load.js';
import { loadRow, rateAtLeast } from '../lib/rows.js';
import { startChild } from '../lib/child.js';
import type { BenchContext, Row, Scenario, Subject } from '../lib/types.js';
import { startEmulatorWith } from '../subjects/emulator.js';
import { BENCH_KEY } from '../lib/seed.js';

// The request log's cost (issue 29): the same emulator build at 1k payments with the log on
// (the default, 10,000 entries) and off (--request-log 0), GET and POST each measured in pairs of
// adjacent slices, 16 rounds (measurePaired); target: on ≥ 95% of off. Then the memory of a full log: RSS of an emulator
// before and after 10,000 requests whose bodies are ~1 KB each, and the same with the log off,
// so the log's own share shows apart from the 10,000 links the requests made (reported, not a
// target).

const ENTRIES = 10_000;
/** Rounds of the paired measurement, and its measured time per load against the other rows' (16 s at the default 8 s). */
const ROUNDS_PAIRED = 16;
const MEASURE_FACTOR = 2;

async function run(ctx: BenchContext): Promise<Row[]> {
  const subjects: Subject[] = [];
  const rows: Row[] = [];
  try {
    // "off" first: the first emulator started measured a few % slower in A/A runs (api.ts).
    const off = await startEmulatorWith(ctx, 1_000, 'log-off', ctx.root, ['--request-log', '0']);
    subjects.push(off);
    const on = await startEmulatorWith(ctx, 1_000, 'log-on');
    subjects.push(on);
    // Each load with its twin on the other emulator (GET with GET, POST with POST), measured in
    // adjacent slices (measurePaired): the ratio is what the target judges, and a 5% margin
    // needs less noise than six interleaved rounds of four loads left.
    const pairs = off.loads.map((o) => [o, on.loads.find((e) => e.id === o.id.replace(/log-off$/, 'log-on'))!] as const);
    const loads = pairs.map(([o, n]) => [new Load(o.spec), new Load(n.spec)] as const);
    try {
      ctx.log(`request log: measuring ${pairs.length} pairs of loads, ${ROUNDS_PAIRED} rounds`);
      const results = await measurePaired(loads, { warmupMs: ctx.warmupMs, measureMs: ctx.measureMs * MEASURE_FACTOR, rounds: ROUNDS_PAIRED, log: ctx.log });
      pairs.forEach(([o, n], i) => {
        const [offResult, onResult] = results[i];
        rows.push(loadRow(o.id, o.label, offResult, o.describe?.(offResult)));
        // Beside the throughput ratio (the target), what the log costs in the emulator's own CPU:
        // on 2 CPUs the client shares the machine, so req/s moves with more than the server's work.
        const cpuOff = o.cpuPerRequestMs?.(offResult);
        const cpuOn = n.cpuPerRequestMs?.(onResult);
        const extra = cpuOn !== undefined && cpuOff !== undefined ? `; the log's own: ${((cpuOn - cpuOff) * 1000).toFixed(1)} µs/req (${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)}%)` : '';
        rows.push(loadRow(n.id, n.label, onResult, `${n.describe?.(onResult) ?? ''}${extra}` || undefined));
      });
    } finally {
      await Promise.all(loads.flat().map((l) => l.close()));
    }
  } finally {
    await Promise.all(subjects.map((s) => s.finish().catch(() => [])));
  }
  const on = await fullLogMemory(ctx, String(ENTRIES));
  const off = await fullLogMemory(ctx, '0');
  const mb = (b: number) => (b / 1e6).toFixed(0);
  rows.push({
    id: 'requestlog.rss',
    label: `RSS with ${ENTRIES.toLocaleString('en')} log entries of ~1 KB bodies`,
    note:
      `log on: ${mb(on.before)} → ${mb(on.after)} MB (+${mb(on.after - on.before)}); log off: ${mb(off.before)} → ${mb(off.after)} MB (+${mb(off.after - off.before)}, the links); ` +
      `the log's own ~${((on.after - on.before - (off.after - off.before)) / 1e6).toFixed(0)} MB (~${((on.after - on.before - (off.after - off.before)) / ENTRIES / 1024).toFixed(1)} KB an entry)${on.logged ? '' : '; the log was empty!'}; not a target`,
  });
  return rows;
}

/** RSS before and after ENTRIES requests of ~1 KB bodies each (`--request-log <log>`). */
async function fullLogMemory(ctx: BenchContext, log: string): Promise<{ before: number; after: number; logged: boolean }> {
  const dataDir = join(ctx.tmpDir, `emulator-log-rss-${log}`);
  mkdirSync(dataDir, { recursive: true });
  const emulator = await startChild<{ base_url: string }>(process.execPath, ['bin/svc.js', 'emulator', 'start', '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir, '--request-log', log], ctx.root);
  try {
    const base = emulator.info.base_url;
    const rss = async () => ((await fetchJson(`${base}/_emulator/metrics`)) as { data: { rss_bytes: number } }).data.rss_bytes;
    const before = await rss();
    // ~1 KB of metadata per request: the request body the log keeps (redacted, as JSON text).
    const body = JSON.stringify({ title: 'Log fill', amount: 100, currency: 'USD', metadata: { note: 'x'.repeat(900) } });
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    let next = 0;
    const one = (i: number) =>
      new Promise<void>((ok, fail) => {
        const req = request(`${base}/v1/api/payment-links`, { method: 'POST', agent, headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json', 'x-idempotency-key': `log-rss-${i}` } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 201 ? ok() : fail(new Error(`POST ${i}: HTTP ${res.statusCode}`))));
        });
        req.on('error', fail);
        req.end(body);
      });
    ctx.log(`request log: ${ENTRIES} requests of ~1 KB bodies (--request-log ${log})`);
    await Promise.all(Array.from({ length: 10 }, async () => {
      while (next < ENTRIES) await one(next++);
    }));
    agent.destroy();
    const logged = ((await fetchJson(`${base}/_emulator/requests?limit=1`)) as { data: { requests: unknown[] } }).data.requests.length > 0;
    const after = await rss();
    return { before, after, logged };
  } finally {
    await emulator.stop();
  }
}

export const requestLog: Scenario = {
  name: 'requestlog',
  run,
  targets: [
    rateAtLeast('emulator.get.log-on', 'emulator.get.log-off', 0.95, 'the log off'),
    rateAtLeast('emulator.post.log-on', 'emulator.post.log-off', 0.95, 'the log off'),
  ],
};
