import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { fetchJson } from '../lib/load.js';
import { loadRow } from '../lib/rows.js';
import { startChild } from '../lib/child.js';
import { cpu, measureSides, median, perRun, rate } from '../lib/paired.js';
import type { BenchContext, Row, Scenario } from '../lib/types.js';
import { cpuNote, startEmulatorWith } from '../subjects/emulator.js';
import { BENCH_KEY } from '../lib/seed.js';

// The request log's cost: the same emulator build at 1k payments with the log on (the default,
// 10,000 entries) and off (--request-log 0), for GET and POST:
//   - req/s with the log on as a share of off, as the median of three runs;
//   - the log's own emulator CPU per request as a share of the request's CPU with the log off (median).
// Reported, not targeted (issue 48): issue 37 aimed at 90% and 10%, which would need the entries
// off the JS heap again; what users get is judged instead, by the emulator's GET and POST rows
// with its defaults (log on).
// Each side is three emulator processes, each load measured beside its twin (lib/paired.ts).
// Then the memory of a full log: RSS of an emulator before and after 10,000 requests whose
// bodies are ~1 KB each, and the same with the log off, so the log's own share shows apart from
// the 10,000 links the requests made (not a target).

const ENTRIES = 10_000;
const KINDS = ['get', 'post'] as const;

async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  await measureSides(
    ctx,
    {
      name: 'request log',
      kinds: KINDS,
      replicas: 3,
      runs: 3,
      rounds: 10,
      measureFactor: 2,
      start: (side, i) => (side === 'off' ? startEmulatorWith(ctx, 1_000, `log-off-${i}`, ctx.root, ['--request-log', '0']) : startEmulatorWith(ctx, 1_000, `log-on-${i}`)),
    },
    (byKind) => {
      for (const kind of KINDS) {
        const { off, on, runs, label } = byKind[kind]!;
        const ratios = runs.map((x) => rate(x.on) / rate(x.off));
        // The log's own CPU per request, as a share of the request's CPU with the log off.
        const shares = runs.map((x) => (cpu(x.on) - cpu(x.off)) / cpu(x.off));
        rows.push(loadRow(`emulator.${kind}.log-off`, label('off'), off, cpuNote(median(runs.map((x) => cpu(x.off))))));
        const onNote = `${cpuNote(median(runs.map((x) => cpu(x.on))))}; on/off ${perRun([median(ratios)])} (median; by run: ${perRun(ratios)}); not a target`;
        rows.push({ ...loadRow(`emulator.${kind}.log-on`, label('on'), on, onNote), ratio: median(ratios) });
        rows.push({
          id: `emulator.${kind}.log-cpu`,
          label: `the log's own emulator CPU per ${kind.toUpperCase()}, share of the request's`,
          ratio: median(shares),
          note: `${perRun([median(shares)])} (median; by run: ${perRun(shares)}: ${runs.map((x) => `${((cpu(x.on) - cpu(x.off)) * 1000).toFixed(1)} µs`).join(' / ')}); not a target`,
        });
      }
    },
  );
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

export const requestLog: Scenario = { name: 'requestlog', run };
