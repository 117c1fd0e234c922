import type { LoadResult } from './load.js';
import type { Row, Target } from './types.js';

/** A table row from a load result; errors are shown, so a broken row cannot pass for fast. */
export function loadRow(id: string, label: string, r: LoadResult, note?: string): Row {
  const notes = [note, r.errors > 0 ? `${r.errors} errors, first: ${r.firstError}` : undefined].filter(Boolean);
  return { id, label, rate: r.rate, p50Ms: r.p50Ms, p99Ms: r.p99Ms, maxMs: r.maxMs, errors: r.errors, note: notes.join('; ') || undefined };
}

const valid = (row: Row | undefined): row is Row => row !== undefined && (row.errors ?? 0) === 0;

/** Target: `row`'s rate is at least `fraction` of `baseline`'s rate. */
export function rateAtLeast(row: string, baseline: string, fraction: number, baselineName: string): Target {
  return {
    row,
    text: `req/s ≥ ${Math.round(fraction * 100)}% of ${baselineName}`,
    check(rows) {
      const a = rows.get(row);
      const b = rows.get(baseline);
      if (!valid(a) || !valid(b) || a.rate === undefined || b.rate === undefined) return undefined;
      const ratio = a.rate / b.rate;
      return { actual: `${Math.round(ratio * 100)}%`, pass: ratio >= fraction };
    },
  };
}

/** Target: a millisecond figure of `row` is at most `limitMs`. */
export function msAtMost(row: string, field: 'p99Ms' | 'maxMs', limitMs: number, name: string): Target {
  return {
    row,
    text: `${name} ≤ ${limitMs} ms`,
    check(rows) {
      const r = rows.get(row);
      const value = r?.[field];
      if (!valid(r) || value === undefined || Number.isNaN(value)) return undefined;
      return { actual: `${value.toFixed(1)} ms`, pass: value <= limitMs };
    },
  };
}
