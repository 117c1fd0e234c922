import type { ControlResponse } from '../../../../contract/control/schemas.js';

// The coverage report as lines: the total, a row per kind, and the most important items no
// request or delivery exercised, each with how to (`svc coverage`, `svc emulator exec --coverage`).

export type CoverageReport = ControlResponse<'coverage'>;

const pct = (p: number) => `${p.toFixed(1)}%`;

export function coverageLines(r: CoverageReport): string[] {
  return [
    `${pct(r.percent)} covered: ${r.covered} of ${r.total} items${r.ignored > 0 ? ` (${r.ignored} ignored, counted apart)` : ''}`,
    '',
    `  ${'kind'.padEnd(9)} ${'covered'.padStart(9)} ${'percent'.padStart(8)}  ignored`,
    ...r.kinds.map((k) => `  ${k.kind.padEnd(9)} ${`${k.covered}/${k.total}`.padStart(9)} ${pct(k.percent).padStart(8)}  ${k.ignored}`),
    ...(r.uncovered_top.length === 0
      ? []
      : ['', `Never exercised, most important first (${r.uncovered_top.length} of ${r.total - r.covered}):`, ...r.uncovered_top.flatMap((i) => [`  ${i.kind.padEnd(9)} ${i.name}`, `  ${''.padEnd(9)} how: ${i.how}`])]),
  ];
}

/** One warning a pattern that named no item (`--coverage-ignore`, `--ignore`). */
export const unmatchedWarnings = (r: CoverageReport, flag: string) => r.unmatched_ignore.map((p) => `warning: ${flag} "${p}" matches no coverage item; nothing was ignored for it\n`);
