import type { Row, Target, TargetResult } from './types.js';

// One plain-text table: a line per row, its targets beside it (a second target of the same
// row goes on a continuation line), so every number is read next to what it should be.

export interface JudgedTarget {
  target: Target;
  result: TargetResult | undefined;
}

const num = (v: number | undefined, digits: number) => (v === undefined || Number.isNaN(v) ? '' : v.toFixed(digits));

export function formatTable(rows: Row[], judged: JudgedTarget[]): string {
  const header = ['row', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'target', 'measured', 'ok', 'note'];
  const right = new Set([1, 2, 3, 4, 6]);
  const lines: string[][] = [];
  for (const row of rows) {
    const mine = judged.filter((j) => j.target.row === row.id);
    const cells = [row.label, num(row.rate, 0), num(row.p50Ms, 2), num(row.p99Ms, 2), num(row.maxMs, 1)];
    const targetCells = (j: JudgedTarget | undefined) =>
      j ? [j.target.text, j.result?.actual ?? 'n/a', j.result?.pass ? 'PASS' : 'FAIL'] : ['', '', ''];
    lines.push([...cells, ...targetCells(mine[0]), row.note ?? '']);
    for (const j of mine.slice(1)) lines.push(['', '', '', '', '', ...targetCells(j), '']);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  // The note column is last and left unpadded, so a long note does not widen every line.
  const render = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w, i) => (i === widths.length - 1 ? '-'.repeat(Math.min(w, 4)) : '-'.repeat(w))).join('-|-');
  return [render(header), rule, ...lines.map(render)].join('\n');
}
