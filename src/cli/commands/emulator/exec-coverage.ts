import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { messageOf } from '../../../../contract/errors.js';
import { UsageError } from '../../errors.js';
import type { CliIO } from '../../io.js';
import { coverageLines, unmatchedWarnings, type CoverageReport } from '../coverage/summary.js';
import type { ExecOptions } from './start.js';

// `svc emulator exec --coverage` (docs/coverage.md): the out dir is checked before the command
// runs, so a run is never spent on coverage that cannot be kept; once the command is done the
// emulator's count is written (coverage.json, coverage.html), summed up on stderr and held to
// --coverage-min. The command's own failing exit code always wins.

/** The flag names messages use (a variable's name when the value came from there). */
interface Names {
  out: string;
  min: string;
  ignore: string;
}

/** Whether this run reports coverage: --coverage, or any coverage option given. */
export const wantsCoverage = (opts: ExecOptions, outGiven: boolean) => opts.coverage === true || opts.coverageMin !== undefined || opts.coverageIgnore !== undefined || outGiven;

/** The out dir, made and written to once (a probe, removed): exit 2 before anything runs when it cannot be. */
export function checkCoverageOut(dir: string, names: Names): string {
  const abs = resolve(dir);
  const probe = join(abs, `.svc-coverage-probe-${process.pid}`);
  try {
    mkdirSync(abs, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (err) {
    throw new UsageError(`${names.out}: cannot write to ${abs} (${messageOf(err)}); the command was not run.`);
  }
  return abs;
}

/** Writes and prints the report; returns the exit code: the command's, or 1 when it passed but coverage is short of --coverage-min or was not written. */
export function finishCoverage(report: CoverageReport, html: string, dir: string, opts: ExecOptions, names: Names, io: CliIO, code: number): number {
  const say = (line: string) => io.stderr.write(`svc emulator exec: ${line}\n`);
  for (const w of unmatchedWarnings(report, names.ignore)) say(w.trimEnd());
  io.stderr.write(`\nIntegration coverage of this run\n${coverageLines(report).join('\n')}\n\n`);
  let failed = false;
  try {
    writeFileSync(join(dir, 'coverage.json'), `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'coverage.html'), html, { mode: 0o600 });
    say(`coverage written to ${join(dir, 'coverage.json')} and coverage.html`);
  } catch (err) {
    say(`coverage could not be written to ${dir}: ${messageOf(err)}`);
    failed = true;
  }
  const min = opts.coverageMin;
  // Compared on the counts, not the rounded percentage: exactly the threshold passes (within a
  // float's rounding: 100 / 3 given as 33.333333333333336 is the threshold of 1 of 3).
  if (min !== undefined && report.covered * 100 < min * report.total - 1e-9) {
    say(`coverage ${report.percent.toFixed(1)}% is below ${names.min} ${min}%${code === 0 ? ': exit 1, although the command passed' : `; exit ${code}, the command's own`}`);
    failed = true;
  }
  return code === 0 && failed ? 1 : code;
}
