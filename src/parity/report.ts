import type { Comparison, Difference, ScenarioTally } from './compare.js';

// How a comparison reads: one line a difference (scenario/step, its route, where, expected and
// actual), the accepted ones with their reason, notes, then a table a scenario a row.

const differenceLine = (d: Difference): string => `${d.scenario}/${d.step}  (${d.route})  ${d.where}: expected ${d.expected}, got ${d.actual}`;

function table(columns: string[], rows: (string | number)[][]): string[] {
  const cells = rows.map((r) => r.map(String));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(columns), ...cells.map(line)];
}

interface Totals {
  scenarios: number;
  steps: number;
  compared: number;
  differences: number;
  ignored: number;
  skipped_scenarios: number;
}

export function totals(tally: ScenarioTally[]): Totals {
  return {
    scenarios: tally.length,
    steps: tally.reduce((n, t) => n + t.steps, 0),
    compared: tally.reduce((n, t) => n + t.compared, 0),
    differences: tally.reduce((n, t) => n + t.differences, 0),
    ignored: tally.reduce((n, t) => n + t.ignored, 0),
    skipped_scenarios: tally.filter((t) => t.skipped !== undefined).length,
  };
}

export function checkLines(c: Comparison): string[] {
  const lines: string[] = [];
  const open = c.differences.filter((d) => d.ignored === undefined);
  const accepted = c.differences.filter((d) => d.ignored !== undefined);
  for (const d of open) lines.push(`DIFF  ${differenceLine(d)}`);
  for (const d of accepted) lines.push(`ignored  ${differenceLine(d)}  — ${d.ignored}`);
  for (const s of c.skipped) lines.push(`skipped  ${s.scenario}/${s.step}  — ${s.reason}`);
  for (const n of c.notes) lines.push(`note  ${n}`);
  if (lines.length) lines.push('');
  const t = totals(c.tally);
  lines.push(
    ...table(
      ['SCENARIO', 'STEPS', 'COMPARED', 'DIFFERENCES', 'IGNORED', 'SKIPPED'],
      [...c.tally.map((r) => [r.scenario, r.steps, r.compared, r.differences, r.ignored, r.skipped ?? '']), ['total', t.steps, t.compared, t.differences, t.ignored, t.skipped_scenarios ? `${t.skipped_scenarios} scenario(s)` : '']],
    ),
  );
  lines.push('', t.differences === 0 ? `No differences (${t.compared} steps compared${t.ignored ? `, ${t.ignored} accepted difference(s) ignored` : ''}).` : `${t.differences} difference(s) in ${new Set(open.map((d) => `${d.scenario}/${d.step}`)).size} step(s).`);
  return lines;
}
