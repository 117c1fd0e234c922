import { loadRow } from '../lib/rows.js';
import { cpu, measureSides, median, perRun, rate, ratioTarget } from '../lib/paired.js';
import type { BenchContext, Row, Scenario } from '../lib/types.js';
import { cpuNote, startEmulatorWith } from '../subjects/emulator.js';
import { Coverage } from '../../emulator/coverage.js';

// What counting integration coverage costs (issue 45): GET /v1/api/payments/{id} at 1k payments
// with coverage counting on (what every emulator does) against off, each side three emulator
// processes measured pairwise (lib/paired.ts), three runs; the target judges the median ratio:
// at most 2% less throughput. Both sides start through servers/emulator.ts (no svc flag turns
// counting off). On a busy machine the ratio moves by more than 2% from run to run, so a second
// row measures what counting adds to one answer without HTTP or neighbours: the tally of
// GET /v1/api/payments/:id told a 200, in a tight loop, as CPU time (not a target).

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
      const perGetMs = median(runs.map((x) => cpu(x.off)));
      const ns = answerCpuNs();
      return [
        loadRow('emulator.get.coverage-off', label('off'), off, cpuNote(perGetMs)),
        { ...loadRow('emulator.get.coverage-on', label('on'), on, `${cpuNote(median(runs.map((x) => cpu(x.on))))}; on/off by run: ${perRun(ratios)}`), ratio: median(ratios) },
        {
          id: 'coverage.answer-cpu',
          label: 'counting one GET answer (a tight loop, no HTTP)',
          note: `${ns.toFixed(0)} ns of CPU a call, ${((ns / 1e6 / perGetMs) * 100).toFixed(3)}% of a GET's emulator CPU (${(perGetMs * 1000).toFixed(0)} µs, coverage off); not a target`,
        },
      ];
    },
  );
}

/** CPU per RouteTally.answered() of a 200 on the GET-a-payment route, in ns (the median of 5 loops of 1M calls). */
function answerCpuNs(): number {
  const tally = new Coverage({ now: () => 0 }, true, null, () => {}).tallyOf('getPayment')!;
  const answer = { req: { query: {} }, getHeader: () => undefined };
  const body = '{"success":true,"data":{}}';
  const loops = Array.from({ length: 5 }, () => {
    const start = process.cpuUsage();
    for (let i = 0; i < 1_000_000; i++) tally.answered(200, body, answer);
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1000) / 1_000_000;
  });
  return median(loops);
}

export const coverage: Scenario = {
  name: 'coverage',
  run,
  targets: [ratioTarget('emulator.get.coverage-on', 'req/s ≥ 98% of coverage off', 0.98, false)],
};
