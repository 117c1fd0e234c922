import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { Load, fetchJson, measurePaired } from '../lib/load.js';
import { loadRow } from '../lib/rows.js';
import { startChild } from '../lib/child.js';
import type { BenchContext, Row, Scenario, Subject, SubjectLoad, Target } from '../lib/types.js';
import { cpuNote, startEmulatorWith } from '../subjects/emulator.js';
import { BENCH_KEY } from '../lib/seed.js';

// The request log's cost (issue 37's targets): the same emulator build at 1k payments with the
// log on (the default, 10,000 entries) and off (--request-log 0), for GET and POST:
//   - req/s with the log on ≥ 90% of off, as the median of RUNS runs;
//   - the log's own emulator CPU per request ≤ 10% of the request's CPU with the log off (median).
// Each side is REPLICAS emulator processes, and each load is measured beside its twin on the
// other side in pairs of adjacent slices (measurePaired); a run's figure for a side is its
// replicas' requests over their time together. Then the memory of a full log: RSS of an emulator
// before and after 10,000 requests whose bodies are ~1 KB each, and the same with the log off,
// so the log's own share shows apart from the 10,000 links the requests made (not a target).

const ENTRIES = 10_000;
/**
 * Emulator processes a side. Two processes started alike differed by up to ±3% in req/s for
 * their whole life (A/A runs on the 2-vCPU bench VM): with one a side, that offset stayed in the
 * ratio however many rounds were measured. Three a side average it down.
 */
const REPLICAS = 3;
/** Runs of the whole paired measurement; the targets judge their median. */
const RUNS = 3;
/** Rounds of one run's paired measurement, and its measured time per row against the other rows' (16 s at the default 8 s, shared by the replicas). */
const ROUNDS_PAIRED = 10;
const MEASURE_FACTOR = 2;
const KINDS = ['get', 'post'] as const;

interface Side {
  /** By kind, one load per replica. */
  loads: Record<(typeof KINDS)[number], Array<{ meta: SubjectLoad; load: Load }>>;
}

/** What a side's loads of one kind have measured so far: requests, seconds, emulator CPU (ms). */
interface Tally {
  requests: number;
  seconds: number;
  cpuMs: number;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const subjects: Subject[] = [];
  const rows: Row[] = [];
  const sides = { off: newSide(), on: newSide() };
  try {
    // Off and on started in turns: the first emulator started measured a few % slower in A/A runs (api.ts).
    for (let i = 1; i <= REPLICAS; i++) {
      addReplica(sides.off, await startEmulatorWith(ctx, 1_000, `log-off-${i}`, ctx.root, ['--request-log', '0']), subjects);
      addReplica(sides.on, await startEmulatorWith(ctx, 1_000, `log-on-${i}`), subjects);
    }
    // Each load with its twin on the other side (GET with GET, POST with POST, replica i with
    // replica i), measured in adjacent slices: the ratio is what the target judges.
    const pairs = KINDS.flatMap((kind) => sides.off.loads[kind].map((o, i) => [o.load, sides.on.loads[kind][i].load] as const));
    // Per run and kind: the off side's and the on side's tallies over that run alone.
    const runs: Array<Record<(typeof KINDS)[number], { off: Tally; on: Tally }>> = [];
    for (let r = 0; r < RUNS; r++) {
      const before = { get: { off: tally(sides.off, 'get'), on: tally(sides.on, 'get') }, post: { off: tally(sides.off, 'post'), on: tally(sides.on, 'post') } };
      const since = (kind: (typeof KINDS)[number]) => ({ off: minus(tally(sides.off, kind), before[kind].off), on: minus(tally(sides.on, kind), before[kind].on) });
      ctx.log(`request log: run ${r + 1}/${RUNS}, ${pairs.length} pairs of loads (${REPLICAS} emulators a side), ${ROUNDS_PAIRED} rounds`);
      await measurePaired(pairs, { warmupMs: r === 0 ? ctx.warmupMs : 0, measureMs: (ctx.measureMs * MEASURE_FACTOR) / REPLICAS, rounds: ROUNDS_PAIRED, log: ctx.log });
      runs.push({ get: since('get'), post: since('post') });
    }
    for (const kind of KINDS) {
      const off = Load.merged(sides.off.loads[kind].map((l) => l.load));
      const on = Load.merged(sides.on.loads[kind].map((l) => l.load));
      const ratios = runs.map((x) => rate(x[kind].on) / rate(x[kind].off));
      // The log's own CPU per request, as a share of the request's CPU with the log off.
      const shares = runs.map((x) => (cpu(x[kind].on) - cpu(x[kind].off)) / cpu(x[kind].off));
      // The first replica's label without its number ("GET /v1/api/payments/{id} @ log-off-1").
      const label = (side: Side) => `${side.loads[kind][0].meta.label.replace(/-1$/, '')}, ${REPLICAS} emulators, ${RUNS} runs`;
      const perRun = (values: number[]) => values.map((v) => `${(v * 100).toFixed(1)}%`).join(' / ');
      rows.push(loadRow(`emulator.${kind}.log-off`, label(sides.off), off, cpuNote(median(runs.map((x) => cpu(x[kind].off))))));
      rows.push({ ...loadRow(`emulator.${kind}.log-on`, label(sides.on), on, `${cpuNote(median(runs.map((x) => cpu(x[kind].on))))}; on/off by run: ${perRun(ratios)}`), ratio: median(ratios) });
      rows.push({
        id: `emulator.${kind}.log-cpu`,
        label: `the log's own emulator CPU per ${kind.toUpperCase()}, share of the request's`,
        ratio: median(shares),
        note: `by run: ${perRun(shares)} (${runs.map((x) => `${((cpu(x[kind].on) - cpu(x[kind].off)) * 1000).toFixed(1)} µs`).join(' / ')})`,
      });
    }
  } finally {
    await Promise.all(KINDS.flatMap((kind) => [...sides.off.loads[kind], ...sides.on.loads[kind]]).map((l) => l.load.close()));
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

/** A side's loads of one kind so far: their requests, measured seconds and the emulators' CPU. */
function tally(side: Side, kind: (typeof KINDS)[number]): Tally {
  const out: Tally = { requests: 0, seconds: 0, cpuMs: 0 };
  for (const { meta, load } of side.loads[kind]) {
    const r = load.result();
    if (r.requests === 0) continue;
    out.requests += r.requests;
    out.seconds += r.requests / r.rate;
    out.cpuMs += (meta.cpuPerRequestMs?.(r) ?? Number.NaN) * r.requests;
  }
  return out;
}

const minus = (a: Tally, b: Tally): Tally => ({ requests: a.requests - b.requests, seconds: a.seconds - b.seconds, cpuMs: a.cpuMs - b.cpuMs });
const rate = (t: Tally) => t.requests / t.seconds;
/** Emulator CPU per request, ms. */
const cpu = (t: Tally) => t.cpuMs / t.requests;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Target: a row's ratio is at least (or at most) `limit`. */
function ratioTarget(row: string, text: string, limit: number, atMost: boolean): Target {
  return {
    row,
    text,
    check(rows) {
      const ratio = rows.get(row)?.ratio;
      if (ratio === undefined || Number.isNaN(ratio)) return undefined;
      return { actual: `${(ratio * 100).toFixed(1)}% (median)`, pass: atMost ? ratio <= limit : ratio >= limit };
    },
  };
}

const newSide = (): Side => ({ loads: { get: [], post: [] } });

function addReplica(side: Side, subject: Subject, all: Subject[]): void {
  all.push(subject);
  for (const kind of KINDS) {
    const meta = subject.loads.find((l) => l.id.startsWith(`emulator.${kind}.`))!;
    side.loads[kind].push({ meta, load: new Load(meta.spec) });
  }
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
  targets: KINDS.flatMap((kind) => [
    ratioTarget(`emulator.${kind}.log-on`, 'req/s ≥ 90% of the log off', 0.9, false),
    ratioTarget(`emulator.${kind}.log-cpu`, "≤ 10% of the request's CPU", 0.1, true),
  ]),
};
