import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONNECTIONS, ROUNDS } from './lib/load.js';
import { formatTable, type JudgedTarget } from './lib/table.js';
import type { BenchContext, Row, Scenario } from './lib/types.js';
import { api } from './scenarios/api.js';
import { webhooks } from './scenarios/webhooks.js';
import { cli } from './scenarios/cli.js';
import { longrun } from './scenarios/longrun.js';
import { testing } from './scenarios/testing.js';
import { remote } from './scenarios/remote.js';
import { requestLog } from './scenarios/request-log.js';
import { coverage } from './scenarios/coverage.js';
import { parity } from './scenarios/parity.js';
import { exe } from './scenarios/exe.js';
import { start } from './scenarios/start.js';
import { messageOf } from '../contract/errors.js';

// `npm run bench`: builds, then measures everything in one run on this machine and prints
// ONE table on stdout (progress goes to stderr). Not a test: nothing here asserts; targets
// are printed as PASS/FAIL beside the numbers. The exit code is 1 only when a scenario could
// not measure (a server did not start, a row erred), not when a number misses its target.
//
// Layout
//   bench/run.ts              this file: runs SCENARIOS in order, judges targets, prints the
//                             table, writes bench/results/latest.json (git-ignored)
//   bench/scenarios/<name>.ts one module per group of rows; exports a `Scenario`:
//                             { name, run(ctx) => Promise<Row[]>, targets?: Target[] }
//                             api.ts: the emulator at 1k/100k payments beside the references and the
//                             peers (subjects/peers.ts: json-server, Prism, Mockoon CLI)
//                             longrun.ts: 100k create+simulate pairs, kill -9, compaction, retention
//                             remote.ts: GET/POST from another host (network namespaces, root) vs loopback
//                             parity.ts: the whole parity suite (svc parity check) against the emulator
//                             exe.ts: the single executable (built here) beside the npm package
//                             request-log.ts, coverage.ts: a feature's cost, off against on (lib/paired.ts)
//                             start.ts: `npm start` in a fresh checkout, first and again
//   bench/subjects/<name>.ts  servers under test, started and ready (`Subject`): the loads to
//                             drive against them and the rows they report (start-up, stalls)
//   bench/servers/*.ts        the reference servers (bare express 5; express 5 + zod)
//   bench/lib/types.ts        Row, Target, Scenario, Subject, BenchContext
//   bench/lib/load.ts         the load generator (undici Pool, 10 connections, pipelining 1,
//                             warm-up, status checks, p50/p99/max) and interleaved measuring
//   bench/lib/child.ts        starts a server as a child process, waits for its JSON ready line
//   bench/lib/seed.ts         seeds an emulator data dir with N payments through FileStore
//   bench/lib/rows.ts         a Row from a load result; reusable targets (rate ratio, ms limit)
//   bench/lib/table.ts        the one table
//   bench/lib/peer-install.ts installs a peer at its pinned version into bench/.cache/peers
//   bench/lib/proc-cpu.ts     a server's CPU per request from /proc (references, peers), and
//                             the CPU of ended children (testing's four files)
//
// Adding rows: write bench/scenarios/<name>.ts exporting a Scenario and add it to SCENARIOS
// (e.g. webhook deliveries/s to a local receiver, CLI cold start). Row ids are stable
// ("<area>.<what>.<variant>"); a target names the row it is printed on and may read any row,
// including other scenarios' (a missing or erroring row makes it "n/a", FAIL). Loads whose
// rows are compared with each other belong in one scenario and go through
// measureInterleaved(), so background noise on the machine hits them alike. Servers run in
// child processes on loopback only; a scenario stops what it starts, in a finally.
//
// Knobs (environment): BENCH_WARMUP_MS (default 2000) and BENCH_MEASURE_MS (default 8000)
// per load; the whole run takes ~17 min on 2 busy CPUs. BENCH_PEERS=0 leaves the peers out of
// the api scenario; BENCH_PEERS_DIR moves their install cache (lib/peer-install.ts).

// BENCH_ONLY=<name>[,<name>] runs only those scenarios (their targets alone are judged).
const ONLY = process.env.BENCH_ONLY?.split(',').map((n) => n.trim()).filter(Boolean);
const SCENARIOS: Scenario[] = [api, remote, requestLog, coverage, webhooks, cli, start, exe, testing, parity, longrun].filter((s) => !ONLY?.length || ONLY.includes(s.name));

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(): Promise<number> {
  const tmpDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const ctx: BenchContext = {
    root,
    tmpDir,
    warmupMs: Number(process.env.BENCH_WARMUP_MS ?? 2000),
    measureMs: Number(process.env.BENCH_MEASURE_MS ?? 8000),
    log: (m) => process.stderr.write(`bench: ${m}\n`),
  };
  const started = performance.now();
  // Other work on the machine moves every number; the load average says how much there was.
  const loadBefore = loadavg()[0];
  const rows: Row[] = [];
  const failures: string[] = [];
  try {
    // SCENARIOS is already narrowed by BENCH_ONLY (one name or a list; a shared machine: run only the rows you need).
    for (const scenario of SCENARIOS) {
      try {
        rows.push(...(await scenario.run(ctx)));
      } catch (err) {
        failures.push(`${scenario.name}: ${(err instanceof Error && err.stack) || String(err)}`);
        ctx.log(`scenario ${scenario.name} failed: ${messageOf(err)}`);
      }
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }

  const byId = new Map(rows.map((r) => [r.id, r]));
  const judged: JudgedTarget[] = SCENARIOS.flatMap((s) => s.targets ?? []).map((target) => ({ target, result: target.check(byId) }));
  const seconds = (performance.now() - started) / 1000;
  const machine = `${cpus()[0]?.model ?? 'unknown cpu'} ×${availableParallelism()}, node ${process.version}`;
  const load = `load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end`;

  process.stdout.write(
    `svc bench — ${new Date().toISOString()} — ${machine}\n` +
      `${load}; clients: ${CONNECTIONS} connections, pipelining 1, ${ctx.warmupMs} ms warm-up + ${ctx.measureMs} ms measured per row (in ${ROUNDS} interleaved rounds); emulator run with --rate-limit off\n\n` +
      `${formatTable(rows, judged)}\n\n` +
      `${judged.filter((j) => j.result?.pass).length}/${judged.length} targets pass; whole run ${seconds.toFixed(0)} s\n`,
  );
  for (const f of failures) process.stderr.write(`\nscenario failed: ${f}\n`);

  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'latest.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine,
        load_average: { start: loadBefore, end: loadavg()[0] },
        connections: CONNECTIONS,
        warmup_ms: ctx.warmupMs,
        measure_ms: ctx.measureMs,
        duration_s: Math.round(seconds),
        rows,
        targets: judged.map((j) => ({ row: j.target.row, target: j.target.text, measured: j.result?.actual ?? null, pass: j.result?.pass ?? false })),
        failures,
      },
      null,
      2,
    )}\n`,
  );
  return failures.length > 0 || rows.some((r) => (r.errors ?? 0) > 0) ? 1 : 0;
}

process.exitCode = await main();
