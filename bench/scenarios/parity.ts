import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import { msAtMost } from '../lib/rows.js';
import type { BenchContext, Row, Scenario } from '../lib/types.js';

// The parity suite (issue 30) against the emulator, as a team's CI runs it: the built `svc`
// process, wall time from spawn to exit, the whole suite (every scenario, webhook deliveries
// included) against an emulator started with its defaults (the 100/1s rate limit too: a 429 is
// waited out and is part of the time).
//
//   parity.record   svc parity record against the emulator (once, the snapshot for the checks)
//   parity.check    svc parity check against the same emulator, BENCH_PARITY_ROUNDS times
//
// Target: the whole check in at most 10 s (max over the rounds).

const ROUNDS = Number(process.env.BENCH_PARITY_ROUNDS ?? 5);
const KEY = 'svc_test_acme0all0scopes0000000000001';

function timeRun(args: string[], cwd: string): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
    child.once('close', (code) => resolve({ ms: performance.now() - started, code }));
    child.once('error', () => resolve({ ms: performance.now() - started, code: null }));
  });
}

export const parity: Scenario = {
  name: 'parity',
  targets: [msAtMost('parity.check', 'maxMs', 10_000, 'max')],
  async run(ctx: BenchContext): Promise<Row[]> {
    const dataDir = join(ctx.tmpDir, 'parity-emulator');
    mkdirSync(dataDir, { recursive: true });
    const bin = join(ctx.root, 'bin', 'svc.js');
    ctx.log('parity: starting an emulator');
    const emulator = await startChild<{ base_url: string }>(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json', '--quiet', '--data-dir', dataDir], ctx.root);
    try {
      const target = ['--base-url', emulator.info.base_url, '--api-key', KEY, '--emulator-fixtures'];
      const snapshot = join(ctx.tmpDir, 'parity.snapshot.json');
      const record = await timeRun([bin, 'parity', 'record', ...target, '--out', snapshot], ctx.tmpDir);
      const times: number[] = [];
      let errors = record.code === 0 ? 0 : 1;
      for (let i = 0; i < ROUNDS; i++) {
        const r = await timeRun([bin, 'parity', 'check', ...target, '--snapshot', snapshot], ctx.tmpDir);
        ctx.log(`parity: check round ${i + 1}/${ROUNDS}: ${r.ms.toFixed(0)} ms, exit ${r.code}`);
        times.push(r.ms);
        if (r.code !== 0) errors++;
      }
      times.sort((a, b) => a - b);
      return [
        { id: 'parity.record', label: 'svc parity record, whole suite vs emulator (process wall time)', p50Ms: record.ms, maxMs: record.ms, errors: record.code === 0 ? 0 : 1, note: 'once' },
        { id: 'parity.check', label: 'svc parity check, whole suite vs emulator (process wall time)', p50Ms: times[Math.floor(times.length / 2)], maxMs: times[times.length - 1], errors, note: `${ROUNDS} rounds` },
      ];
    } finally {
      await emulator.stop();
    }
  },
};
