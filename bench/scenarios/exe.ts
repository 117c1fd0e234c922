import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';
import { emulatorWithLink, linksGet, measureColdStarts, pct } from './cli.js';

// The single executable (issue 40, scripts/build-exe.mjs), built here from this tree, beside the
// npm package (node bin/svc.js) and `node -e 0`, interleaved round by round.
//
//   exe.size                 the file's size (the smallest reached without dropping a feature)
//   exe.node                 node -e 0 (the floor of the package, which runs on this node)
//   exe.node-inside          node -e 0 of the Node.js the executable embeds (its own floor)
//   exe.{version,help,links-get}.{exe,pkg}   the same command line from each
//   exe.start.{exe,pkg}      `svc emulator start --json` from spawn to its ready line, each in a
//                            fresh data dir (what a CI job pays), START_ROUNDS interleaved rounds
//
// Targets (issue 49): the executable's --help and links get --json at most the package's ratio,
// each side against the `node -e 0` of the runtime it runs on (the executable holds Node 24, which
// starts in a third of Node 20's time here, so against this machine's node it would pass for its
// runtime alone; the note of each row gives that ratio too).

const START_ROUNDS = Number(process.env.BENCH_EXE_START_ROUNDS ?? 5);

async function buildExecutable(ctx: BenchContext): Promise<{ file: string; node: string; nodePath: string | undefined }> {
  ctx.log('exe: building the executable (scripts/build-exe.mjs)');
  const build = spawn(process.execPath, [join(ctx.root, 'scripts', 'build-exe.mjs')], { cwd: ctx.root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  build.stdout!.on('data', (c) => (stdout += c));
  build.stderr!.on('data', (c) => (stderr += c));
  const [code] = await once(build, 'close');
  if (code !== 0) throw new Error(`scripts/build-exe.mjs exited ${code}: ${stderr.slice(-2000)}`);
  const dir = join(ctx.root, 'dist', 'exe');
  const name = readdirSync(dir).find((f) => f.startsWith('svc-') && !f.endsWith('.txt'));
  if (!name) throw new Error('scripts/build-exe.mjs left no dist/exe/svc-* file');
  // The node inside (Node.js 24, not the one running the bench), as the build said.
  return { file: join(dir, name), node: /\(Node\.js ([\d.]+)\)/.exec(stdout)?.[1] ?? 'unknown', nodePath: /^build:exe: Node\.js [\d.]+ \([^)]*\): (.+)$/m.exec(stdout)?.[1] };
}

/** Spawn to ready line of `emulator start` from each side, interleaved, a fresh data dir each time. */
async function startRows(ctx: BenchContext, sides: { id: string; label: string; command: string; prefix: string[] }[]): Promise<Row[]> {
  const times = new Map(sides.map((s) => [s.id, [] as number[]]));
  ctx.log(`exe: ${START_ROUNDS} interleaved rounds of emulator start`);
  for (let round = 0; round < START_ROUNDS; round++) {
    for (const side of sides) {
      const dataDir = join(ctx.tmpDir, `exe-start-${side.id}-${round}`);
      mkdirSync(dataDir, { recursive: true });
      const emulator = await startChild(side.command, [...side.prefix, 'emulator', 'start', '--port', '0', '--json', '--quiet', '--data-dir', dataDir], ctx.root);
      times.get(side.id)!.push(emulator.readyMs);
      await emulator.stop();
    }
  }
  return sides.map((side) => {
    const sorted = [...times.get(side.id)!].sort((a, b) => a - b);
    return { id: side.id, label: side.label, p50Ms: pct(sorted, 50), maxMs: sorted[sorted.length - 1], note: `spawn to ready line, ${START_ROUNDS} starts in fresh data dirs` };
  });
}

/** Target: the executable's ratio to its own node's `node -e 0` at most the package's to this machine's. */
function asFastAsThePackage(what: string): Target {
  const row = `exe.${what}.exe`;
  return {
    row,
    text: "ratio ≤ the package's, each to its own node -e 0",
    check(rows) {
      const [exe, inside, pkg, node] = [row, 'exe.node-inside', `exe.${what}.pkg`, 'exe.node'].map((id) => rows.get(id));
      if (!exe?.p50Ms || !inside?.p50Ms || !pkg?.p50Ms || !node?.p50Ms || [exe, inside, pkg, node].some((r) => (r.errors ?? 0) > 0)) return undefined;
      const mine = exe.p50Ms / inside.p50Ms;
      const theirs = pkg.p50Ms / node.p50Ms;
      return { actual: `${mine.toFixed(2)}× vs ${theirs.toFixed(2)}×`, pass: mine <= theirs };
    },
  };
}

export const exe: Scenario = {
  name: 'exe',
  targets: [asFastAsThePackage('help'), asFastAsThePackage('links-get')],
  async run(ctx: BenchContext): Promise<Row[]> {
    const { file, node, nodePath } = await buildExecutable(ctx);
    const bin = join(ctx.root, 'bin', 'svc.js');
    const size: Row = { id: 'exe.size', label: `executable size (${file.slice(file.lastIndexOf('/') + 1)})`, note: `${(statSync(file).size / 1e6).toFixed(1)} MB, Node.js ${node} inside` };
    const emulator = await emulatorWithLink(ctx, 'exe');
    let cold: Row[];
    try {
      const get = linksGet(emulator.base, emulator.linkId);
      cold = await measureColdStarts(
        ctx,
        'exe',
        [
          { id: 'exe.node', label: 'node -e 0 (baseline)', args: ['-e', '0'] },
          ...(nodePath ? [{ id: 'exe.node-inside', label: `node -e 0, Node.js ${node} (the one inside the executable)`, command: nodePath, args: ['-e', '0'] }] : []),
          { id: 'exe.version.exe', label: 'svc --version, executable', command: file, args: ['--version'] },
          { id: 'exe.version.pkg', label: 'svc --version, npm package', args: [bin, '--version'] },
          { id: 'exe.help.exe', label: 'svc --help, executable', command: file, args: ['--help'] },
          { id: 'exe.help.pkg', label: 'svc --help, npm package', args: [bin, '--help'] },
          { id: 'exe.links-get.exe', label: 'svc links get <id> --json, executable', command: file, args: get },
          { id: 'exe.links-get.pkg', label: 'svc links get <id> --json, npm package', args: [bin, ...get] },
        ],
        'exe.node',
      );
    } finally {
      await emulator.stop();
    }
    const starts = await startRows(ctx, [
      { id: 'exe.start.exe', label: 'emulator start to ready line, executable', command: file, prefix: [] },
      { id: 'exe.start.pkg', label: 'emulator start to ready line, npm package', command: process.execPath, prefix: [bin] },
    ]);
    return [size, ...cold, ...starts];
  },
};
