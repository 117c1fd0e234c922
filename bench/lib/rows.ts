import type { LoadResult } from './load.js';
import type { Row, Target } from './types.js';

/** A table row from a load result; errors are shown, so a broken row cannot pass for fast. */
export function loadRow(id: string, label: string, r: LoadResult, note?: string): Row {
  const notes = [note, r.errors > 0 ? `${r.errors} errors, first: ${r.firstError}` : undefined].filter(Boolean);
  return { id, label, rate: r.rate, p50Ms: r.p50Ms, p99Ms: r.p99Ms, maxMs: r.maxMs, errors: r.errors, rounds: r.rounds, note: notes.join('; ') || undefined };
}

const valid = (row: Row | undefined): row is Row => row !== undefined && (row.errors ?? 0) === 0;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * `row`'s figure over the others' in the same round (`pick` chooses among theirs: the fastest,
 * the lowest p99), as the median over the rounds, so drift on a busy machine weighs on both sides
 * of every ratio alike; from the whole measurement when a row was not measured in rounds.
 */
function roundRatio(row: Row, others: Row[], field: 'rate' | 'p99Ms', pick: (xs: number[]) => number): { ratio: number; rounds: number } {
  const n = row.rounds?.length ?? 0;
  if (n === 0 || others.some((o) => o.rounds?.length !== n)) return { ratio: row[field]! / pick(others.map((o) => o[field]!)), rounds: 0 };
  return { ratio: median(row.rounds!.map((r, i) => r[field] / pick(others.map((o) => o.rounds![i][field])))), rounds: n };
}

const ofRounds = (rounds: number) => (rounds > 0 ? `, median of ${rounds} rounds` : '');

/** Target: `row`'s rate is at least `fraction` of `baseline`'s rate. */
export function rateAtLeast(row: string, baseline: string, fraction: number, baselineName: string): Target {
  return {
    row,
    text: `req/s ≥ ${Math.round(fraction * 100)}% of ${baselineName}`,
    check(rows) {
      const a = rows.get(row);
      const b = rows.get(baseline);
      if (!valid(a) || !valid(b) || a.rate === undefined || b.rate === undefined) return undefined;
      const { ratio, rounds } = roundRatio(a, [b], 'rate', (xs) => xs[0]);
      return { actual: `${Math.round(ratio * 100)}%${ofRounds(rounds)}`, pass: ratio >= fraction };
    },
  };
}

/**
 * Targets: `row`'s rate at least `factor` × the fastest of `peers`, and its p99 no higher than
 * the lowest of theirs, both round by round. Peers that were not measured (skipped) are left out
 * and counted in the result; with none measured the targets are n/a.
 */
export function aheadOfPeers(row: string, peers: string[], factor: number): Target[] {
  const judge = (rows: ReadonlyMap<string, Row>, field: 'rate' | 'p99Ms', pick: (xs: number[]) => number) => {
    const a = rows.get(row);
    const measured = peers.map((id) => rows.get(id)).filter(valid);
    if (!valid(a) || measured.length === 0) return undefined;
    return { ...roundRatio(a, measured, field, pick), of: `${measured.length} of ${peers.length} peers` };
  };
  return [
    {
      row,
      text: `req/s ≥ ${factor}× the fastest peer`,
      check(rows) {
        const r = judge(rows, 'rate', (xs) => Math.max(...xs));
        return r && { actual: `${r.ratio.toFixed(2)}× (${r.of}${ofRounds(r.rounds)})`, pass: r.ratio >= factor };
      },
    },
    {
      row,
      text: "p99 ≤ every peer's",
      check(rows) {
        const r = judge(rows, 'p99Ms', (xs) => Math.min(...xs));
        return r && { actual: `${r.ratio.toFixed(2)}× the lowest (${r.of}${ofRounds(r.rounds)})`, pass: r.ratio <= 1 };
      },
    },
  ];
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
