import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';

// The CLI's cold start: wall time from spawn to exit of the built binary, beside `node -e 0`
// measured in the same run, interleaved round by round so background load hits all alike.
//
//   cli.node          node -e 0 (the floor: starting Node itself)
//   cli.version       svc --version (answered by bin/svc.js before anything loads)
//   cli.help          svc --help (commander and the command table; no command module)
//   cli.links-get     svc links get <id> --json against a running emulator (one command
//                     module, the node:http client, one HTTP round trip)
//   cli.http-floor    reference, no target: `node -e` doing what links get does without the CLI
//                     (node:http and node:crypto loaded, one GET of the same link with a trace
//                     id, its data printed as JSON): what any Node program pays for that round trip
//
// Targets (issue 28): --version ≤ 1.5×, --help ≤ 1.15× and links get --json ≤ 1.25× node -e 0,
// compared on the median. bin/svc.js and the CLI bundle it loads (dist/cli/,
// scripts/build-bundles.mjs) are CommonJS for this; `links get` takes the fast path
// (src/cli/fast-path.ts), whose two chunks Node's require() loads. A V8 code cache for the chunks
// (bin/chunks.js, issue 28) was measured against plain require() and removed (issue 37): over nine
// interleaved runs the links get --json medians were 1.25× node -e 0 (CPU) with it and 1.25×
// without, both inside a run-to-run scatter of 1.20-1.36×.

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 20);
const KEY = 'svc_test_acme0all0scopes0000000000001';

function timeRun(command: string, args: string[], cwd: string): Promise<{ ms: number; ok: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
    child.once('close', (code) => resolve({ ms: performance.now() - started, ok: code === 0 }));
    child.once('error', () => resolve({ ms: performance.now() - started, ok: false }));
  });
}

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Target: `row`'s median cold start is at most `limit` × `baseline`'s (node -e 0 measured in the same rounds). */
export function ratioTarget(row: string, limit: number, name: string, baseline = 'cli.node'): Target {
  return {
    row,
    text: `p50 ≤ ${limit}× node -e 0`,
    check(rows) {
      const a = rows.get(row);
      const b = rows.get(baseline);
      if (!a?.p50Ms || !b?.p50Ms || (a.errors ?? 0) > 0 || (b.errors ?? 0) > 0) return undefined;
      const ratio = a.p50Ms / b.p50Ms;
      return { actual: `${ratio.toFixed(2)}× (${name})`, pass: ratio <= limit };
    },
  };
}

/** The least a Node program does for `links get --json`: one node:http GET, the data printed. */
function httpFloor(url: string): string {
  return `const { request } = require('node:http');
const { randomBytes } = require('node:crypto');
const headers = { authorization: 'Bearer ${KEY}', 'x-trace-id': 'trc_cli_' + randomBytes(10).toString('hex'), connection: 'close' };
request(${JSON.stringify(url)}, { headers, agent: false }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    if (res.statusCode !== 200) process.exit(1);
    process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString()).data, null, 2) + '\\n');
  });
}).end();`;
}

/** A command line timed from spawn to exit: `command` (default: this node) with `args`. */
export interface ColdStart {
  id: string;
  label: string;
  command?: string;
  args: string[];
}

/** An emulator (bin/svc.js, its own data dir) holding one link, for `links get`. */
export async function emulatorWithLink(ctx: BenchContext, tag: string): Promise<{ base: string; linkId: string; stop(): Promise<void> }> {
  const dataDir = join(ctx.tmpDir, `${tag}-emulator`);
  mkdirSync(dataDir, { recursive: true });
  ctx.log(`${tag}: starting an emulator for \`links get\``);
  const bin = join(ctx.root, 'bin', 'svc.js');
  const emulator = await startChild<{ base_url: string }>(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir], ctx.root);
  try {
    const base = emulator.info.base_url;
    const created = await fetch(`${base}/v1/api/payment-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-idempotency-key': `bench-${tag}-${Date.now()}` },
      body: JSON.stringify({ title: 'bench', amount: 1200 }),
    });
    return { base, linkId: ((await created.json()) as { data: { id: string } }).data.id, stop: () => emulator.stop() };
  } catch (err) {
    await emulator.stop();
    throw err;
  }
}

/** `svc links get <id> --json` against the emulator. */
export const linksGet = (base: string, linkId: string) => ['links', 'get', linkId, '--json', '--base-url', base, '--api-key', KEY];

/**
 * Times every subject ROUNDS times, interleaved round by round (one warm-up run each first), and
 * returns a row per subject with its median as a multiple of the `baseline` subject's.
 */
export async function measureColdStarts(ctx: BenchContext, tag: string, subjects: ColdStart[], baseline: string): Promise<Row[]> {
  const times = new Map(subjects.map((s) => [s.id, [] as number[]]));
  const errors = new Map(subjects.map((s) => [s.id, 0]));
  ctx.log(`${tag}: ${ROUNDS} interleaved rounds of ${subjects.length} cold starts`);
  for (const s of subjects) await timeRun(s.command ?? process.execPath, s.args, ctx.root); // warm the file cache
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of subjects) {
      const r = await timeRun(s.command ?? process.execPath, s.args, ctx.root);
      times.get(s.id)!.push(r.ms);
      if (!r.ok) errors.set(s.id, errors.get(s.id)! + 1);
    }
  }
  const baseP50 = pct([...times.get(baseline)!].sort((a, b) => a - b), 50);
  return subjects.map((s) => {
    const sorted = [...times.get(s.id)!].sort((a, b) => a - b);
    const p50 = pct(sorted, 50);
    return {
      id: s.id,
      label: s.label,
      p50Ms: p50,
      p99Ms: pct(sorted, 99),
      maxMs: sorted[sorted.length - 1],
      errors: errors.get(s.id),
      note: `${ROUNDS} cold starts${s.id === baseline ? '' : `, ${(p50 / baseP50).toFixed(2)}× node -e 0`}${errors.get(s.id) ? `, ${errors.get(s.id)} non-zero exits` : ''}`,
    };
  });
}

export const cli: Scenario = {
  name: 'cli',
  targets: [ratioTarget('cli.version', 1.5, '--version'), ratioTarget('cli.help', 1.15, '--help'), ratioTarget('cli.links-get', 1.25, 'links get --json')],
  async run(ctx: BenchContext): Promise<Row[]> {
    const bin = join(ctx.root, 'bin', 'svc.js');
    const emulator = await emulatorWithLink(ctx, 'cli');
    try {
      return await measureColdStarts(
        ctx,
        'cli',
        [
          { id: 'cli.node', label: 'node -e 0 (baseline)', args: ['-e', '0'] },
          { id: 'cli.version', label: 'svc --version', args: [bin, '--version'] },
          { id: 'cli.help', label: 'svc --help', args: [bin, '--help'] },
          { id: 'cli.links-get', label: 'svc links get <id> --json (emulator)', args: [bin, ...linksGet(emulator.base, emulator.linkId)] },
          { id: 'cli.http-floor', label: 'reference: the same GET in `node -e`, no CLI', args: ['-e', httpFloor(`${emulator.base}/v1/api/payment-links/${emulator.linkId}`)] },
        ],
        'cli.node',
      );
    } finally {
      await emulator.stop();
    }
  },
};
