import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startChild } from '../lib/child.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';
import { pct } from './cli.js';

// `npm start` as a developer meets it (issue 47, scripts/start.mjs), in a checkout of its own:
// this tree's files (git ls-files: committed and new, not ignored ones) copied to a scratch
// folder, its node_modules a link to this one's (what `npm install` left), no dist/.
//
//   start.first   the first `npm start` there: the CLI bundled from the sources, then the
//                 emulator; spawn to ready line, FIRST_ROUNDS times (dist/ removed before each).
//                 Target: ≤ 20 s (the issue's, on a quiet 2-core machine).
//   start.again   `npm start` again with nothing changed, and
//   start.bin     `node bin/svc.js emulator start` in the same checkout, interleaved round by
//                 round, each in a fresh data dir. Target: start.again p50 ≤ 2× start.bin p50.
// Every start is `-- --port 0 --json --quiet` (npm's own banner silenced, so its first line is
// the ready line).

const FIRST_ROUNDS = Number(process.env.BENCH_START_FIRST_ROUNDS ?? 2);
const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 7);
const FIRST_LIMIT_MS = 20_000;
const AGAIN_LIMIT = 2;

function checkout(ctx: BenchContext): string {
  const dir = join(ctx.tmpDir, 'start-checkout');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ctx.root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    try {
      copyFileSync(join(ctx.root, file), join(dir, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // deleted, not yet committed
    }
  }
  symlinkSync(join(ctx.root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

async function timeStart(ctx: BenchContext, dir: string, command: string, args: string[], tag: string): Promise<number> {
  const dataDir = join(ctx.tmpDir, `start-data-${tag}`);
  const emulator = await startChild(command, [...args, '--port', '0', '--json', '--quiet', '--data-dir', dataDir], dir);
  await emulator.stop();
  return emulator.readyMs;
}

const row = (id: string, label: string, times: number[], note: string): Row => {
  const sorted = [...times].sort((a, b) => a - b);
  return { id, label, p50Ms: pct(sorted, 50), maxMs: sorted.at(-1), note };
};

const targets: Target[] = [
  {
    row: 'start.first',
    text: `p50 ≤ ${FIRST_LIMIT_MS / 1000} s`,
    check: (rows) => {
      const ms = rows.get('start.first')?.p50Ms;
      return ms === undefined ? undefined : { actual: `${(ms / 1000).toFixed(1)} s`, pass: ms <= FIRST_LIMIT_MS };
    },
  },
  {
    row: 'start.again',
    text: `p50 ≤ ${AGAIN_LIMIT}× node bin/svc.js emulator start`,
    check: (rows) => {
      const [again, bin] = [rows.get('start.again')?.p50Ms, rows.get('start.bin')?.p50Ms];
      if (again === undefined || bin === undefined) return undefined;
      return { actual: `${(again / bin).toFixed(2)}×`, pass: again <= AGAIN_LIMIT * bin };
    },
  },
];

export const start: Scenario = {
  name: 'start',
  targets,
  async run(ctx: BenchContext): Promise<Row[]> {
    ctx.log('start: copying this tree into a fresh checkout');
    const dir = checkout(ctx);
    const npmStart = ['--silent', 'start', '--'];
    const first: number[] = [];
    for (let i = 0; i < FIRST_ROUNDS; i++) {
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      ctx.log(`start: first npm start ${i + 1}/${FIRST_ROUNDS} (no dist/)`);
      first.push(await timeStart(ctx, dir, 'npm', npmStart, `first-${i}`));
    }
    const again: number[] = [];
    const bin: number[] = [];
    ctx.log(`start: ${ROUNDS} interleaved rounds of npm start (nothing changed) and node bin/svc.js emulator start`);
    for (let i = 0; i < ROUNDS; i++) {
      again.push(await timeStart(ctx, dir, 'npm', npmStart, `again-${i}`));
      bin.push(await timeStart(ctx, dir, process.execPath, [join(dir, 'bin', 'svc.js'), 'emulator', 'start'], `bin-${i}`));
    }
    return [
      row('start.first', 'first npm start after npm install (bundles the CLI)', first, `spawn to ready line, ${FIRST_ROUNDS} runs from no dist/`),
      row('start.again', 'npm start again, nothing changed', again, `spawn to ready line, ${ROUNDS} runs`),
      row('start.bin', 'node bin/svc.js emulator start', bin, `spawn to ready line, ${ROUNDS} runs interleaved with the row above`),
    ];
  },
};
