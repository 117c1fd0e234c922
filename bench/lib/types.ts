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
  /** A unitless ratio a target judges (shown in the target's "measured" cell, not as req/s). */
  ratio?: number;
  /** Anything else worth one short cell: a stall, a start-up time, an error count. */
  note?: string;
  /** A load's measured slices, one per round (lib/load.ts), for targets judged round by round. */
  rounds?: import('./load.js').Round[];
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

/**
 * A server under test, started and ready: the loads to drive against it and the rows it
 * reports itself (start-up time before, event-loop stalls after). Scenarios that compare
 * servers start several subjects and measure all their loads interleaved.
 */
export interface Subject {
  /** Rows known once it is started (e.g. how long start-up took). */
  rows: Row[];
  loads: SubjectLoad[];
  /** Stops it and returns rows measured meanwhile (e.g. the largest event-loop stall). */
  finish(): Promise<Row[]>;
}

export interface SubjectLoad {
  id: string;
  label: string;
  spec: import('./load.js').LoadSpec;
  /** A note for the row, from its result (e.g. CPU time per request read from the server). */
  describe?(result: import('./load.js').LoadResult): string | undefined;
  /** The server's own CPU time per request over the measured slices (ms), when it reports one. */
  cpuPerRequestMs?(result: import('./load.js').LoadResult): number | undefined;
}
