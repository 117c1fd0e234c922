import { loadRow } from '../lib/rows.js';
import { cpu, measureSides, median, perRun, rate, ratioTarget } from '../lib/paired.js';
import type { BenchContext, Row, Scenario } from '../lib/types.js';
import { cpuNote, startEmulatorWith } from '../subjects/emulator.js';

// What counting integration coverage costs (issue 45): GET /v1/api/payments/{id} at 1k payments
// with coverage counting on (what every emulator does) against off, each side three emulator
// processes measured pairwise (lib/paired.ts), three runs; the target judges the median ratio:
// at most 2% less throughput. Both sides start through servers/emulator.ts (no svc flag turns
// counting off).

const ENTRY = ['dist/bench/servers/emulator.js'];

async function run(ctx: BenchContext): Promise<Row[]> {
  return measureSides(
    ctx,
    {
      name: 'coverage',
      kinds: ['get'],
      replicas: 3,
      runs: 3,
      rounds: 10,
      measureFactor: 2,
      start: (side, i) => startEmulatorWith(ctx, 1_000, `coverage-${side}-${i}`, ctx.root, ['--coverage', side], ENTRY),
    },
    (byKind) => {
      const { off, on, runs, label } = byKind.get!;
      const ratios = runs.map((x) => rate(x.on) / rate(x.off));
      return [
        loadRow('emulator.get.coverage-off', label('off'), off, cpuNote(median(runs.map((x) => cpu(x.off))))),
        { ...loadRow('emulator.get.coverage-on', label('on'), on, `${cpuNote(median(runs.map((x) => cpu(x.on))))}; on/off by run: ${perRun(ratios)}`), ratio: median(ratios) },
      ];
    },
  );
}

export const coverage: Scenario = {
  name: 'coverage',
  run,
  targets: [ratioTarget('emulator.get.coverage-on', 'req/s ≥ 98% of coverage off', 0.98, false)],
};
