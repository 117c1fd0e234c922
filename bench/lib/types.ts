// The harness's vocabulary. A scenario measures something and returns rows; a target judges
// one row (possibly against others) and is printed on that row's line of the table.

export interface BenchContext {
  /** The package root (where bin/svc.js lives). */
  root: string;
  /** A scratch directory for this run; removed at the end. */
  tmpDir: string;
  /** Warm-up and measured time of one load row, in ms. */
  warmupMs: number;
  measureMs: number;
  /** Progress messages go to stderr; the table is the only thing on stdout. */
  log(message: string): void;
}

export interface Row {
  /** Stable key, used by targets and in bench/results/latest.json (e.g. "emulator.post.100k"). */
  id: string;
  /** What was measured, as printed in the first column. */
  label: string;
  /** Operations per second (requests, deliveries, ...). */
  rate?: number;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  /** Anything else worth one short cell: a stall, a start-up time, an error count. */
  note?: string;
  /** Failed operations during the measurement (a row with errors is not a valid measurement). */
  errors?: number;
}

export interface TargetResult {
  /** The measured side, e.g. "93% of 1k" or "12.4 ms". */
  actual: string;
  pass: boolean;
}

export interface Target {
  /** The row whose line shows this target. */
  row: string;
  /** The target as people read it, e.g. "p99 ≤ 50 ms". */
  text: string;
  /** Judges the rows; undefined when a row it needs is missing (printed as "n/a", fails). */
  check(rows: ReadonlyMap<string, Row>): TargetResult | undefined;
}

export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<Row[]>;
  targets?: Target[];
}
