import { controlContext } from '../../control-context.js';
import type { FlagsOf } from '../../flags.js';
import type { CliIO } from '../../io.js';
import type { COVERAGE } from './flags.js';
import { coverageLines, unmatchedWarnings, type CoverageReport } from './summary.js';

// `svc coverage`: the running emulator's count (GET /_emulator/coverage).

export async function run(_a: string[], flags: FlagsOf<typeof COVERAGE>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<CoverageReport>('/coverage', { ignore: flags.ignore?.join(',') }));
  for (const w of unmatchedWarnings(data, '--ignore')) io.stderr.write(w);
  ctx.out.result(data, `Integration coverage since ${data.since}`, () => coverageLines(data));
}
