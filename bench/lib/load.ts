import { Pool } from 'undici';
import { messageOf } from '../../contract/errors.js';

// The load generator: a fixed number of connections, each with one request in flight
// (pipelining 1). Latency is measured per request from send to the last byte of the body,
// and every response's status is checked, so a row cannot quietly measure how fast the
// server says 404.
//
// Rows that are compared with each other (the emulator against the references, 100k against
// 1k) are measured interleaved: every load is warmed up, then the measured time is cut into
// rounds and the loads take turns, so a noisy neighbour on the machine slows all of them
// alike instead of whichever row happened to run at the time.

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  baseUrl: string;
  /** Builds request number `i` (fresh ids, fresh idempotency keys, ...). */
  request(i: number): LoadRequest;
  /** The status every response must have. */
  expectStatus: number;
  connections?: number;
  /** Runs before each measured slice (e.g. to reset the server's metrics). */
  beforeSlice?(): Promise<void>;
  /** Runs after each measured slice (e.g. to read the server's metrics). */
  afterSlice?(): Promise<void>;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** The first unexpected response or failure, to show what went wrong. */
  firstError?: string;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Each measured slice on its own (one per round when measured interleaved); absent for merged loads. */
  rounds?: Round[];
}

/** One measured slice: its req/s and p99. Targets that compare loads compare them round by round. */
export interface Round {
  rate: number;
  p99Ms: number;
}

export const CONNECTIONS = 10;
export const ROUNDS = 6;

export class Load {
  private readonly pool: Pool;
  private readonly connections: number;
  private next = 0;
  private latencies: number[] = [];
  private elapsedMs = 0;
  private readonly rounds: Round[] = [];
  private errors = 0;
  private firstError: string | undefined;

  constructor(private readonly spec: LoadSpec) {
    this.connections = spec.connections ?? CONNECTIONS;
    this.pool = new Pool(spec.baseUrl, { connections: this.connections, pipelining: 1 });
  }

  /** Load for `ms` without keeping the numbers (JIT, connections, caches). */
  async warmUp(ms: number): Promise<void> {
    await this.drive(ms, false);
  }

  /** Load for `ms` and add the numbers to this row's result. */
  async measure(ms: number): Promise<void> {
    await this.spec.beforeSlice?.();
    await this.drive(ms, true);
    await this.spec.afterSlice?.();
  }

  result(): LoadResult {
    return Load.merged([this]);
  }

  /**
   * The result of several loads as one: their requests over their measured time together (the
   * same load against replicas of one server, whose process-level differences it averages out).
   */
  static merged(loads: readonly Load[]): LoadResult {
    const sorted = Float64Array.from(loads.flatMap((l) => l.latencies)).sort();
    const elapsedMs = loads.reduce((sum, l) => sum + l.elapsedMs, 0);
    const failed = loads.find((l) => l.firstError !== undefined);
    return {
      ...(loads.length === 1 ? { rounds: [...loads[0].rounds] } : {}),
      requests: sorted.length,
      errors: loads.reduce((sum, l) => sum + l.errors, 0),
      firstError: failed?.firstError,
      rate: sorted.length / (elapsedMs / 1000),
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      maxMs: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async drive(ms: number, keep: boolean): Promise<void> {
    const start = performance.now();
    const deadline = start + ms;
    const worker = async () => {
      while (performance.now() < deadline) {
        const req = this.spec.request(this.next++);
        const t0 = performance.now();
        try {
          const res = await this.pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
          const text = await res.body.text();
          if (keep) this.latencies.push(performance.now() - t0);
          if (res.statusCode !== this.spec.expectStatus) this.fail(`${req.method} ${req.path} → ${res.statusCode} ${text.slice(0, 200)}`);
        } catch (err) {
          this.fail(`${req.method} ${req.path} → ${messageOf(err)}`);
        }
      }
    };
    const kept = this.latencies.length;
    await Promise.all(Array.from({ length: this.connections }, worker));
    if (!keep) return;
    // Requests in flight at the deadline finish after it; their time counts too.
    const took = performance.now() - start;
    this.elapsedMs += took;
    const slice = Float64Array.from(this.latencies.slice(kept)).sort();
    this.rounds.push({ rate: slice.length / (took / 1000), p99Ms: quantile(slice, 0.99) });
  }

  private fail(message: string) {
    this.errors++;
    this.firstError ??= message;
  }
}

/** Warms every load up, then measures them in `rounds` interleaved slices of `measureMs` in all. */
export async function measureInterleaved(loads: Load[], opts: { warmupMs: number; measureMs: number; rounds?: number; log?: (m: string) => void }): Promise<LoadResult[]> {
  const rounds = opts.rounds ?? ROUNDS;
  for (const load of loads) await load.warmUp(opts.warmupMs);
  for (let r = 0; r < rounds; r++) {
    opts.log?.(`round ${r + 1}/${rounds}`);
    // Rotate the order so no load always follows the same neighbour.
    for (let k = 0; k < loads.length; k++) await loads[(k + r) % loads.length].measure(opts.measureMs / rounds);
  }
  return loads.map((l) => l.result());
}

/**
 * Pairs of loads whose ratio is the target (the same server with a feature off and on): each
 * round measures the two of a pair back to back, in turns (off, on, then on, off: ABBA), so
 * every slice of one has a slice of the other next to it and slow drift on the machine cancels
 * out of their ratio. More and shorter rounds than measureInterleaved: on a 2-CPU VM a single
 * slice moved by ±10% (a compaction, a collection, the host), which six rounds left in the
 * ratio. Returns each pair's results in the order given.
 */
export async function measurePaired(pairs: ReadonlyArray<readonly [Load, Load]>, opts: { warmupMs: number; measureMs: number; rounds: number; log?: (m: string) => void }): Promise<Array<[LoadResult, LoadResult]>> {
  for (const pair of pairs) for (const load of pair) await load.warmUp(opts.warmupMs);
  const slice = opts.measureMs / opts.rounds;
  for (let r = 0; r < opts.rounds; r++) {
    opts.log?.(`round ${r + 1}/${opts.rounds}`);
    for (const [a, b] of pairs) {
      const [first, second] = r % 2 === 0 ? [a, b] : [b, a];
      await first.measure(slice);
      await second.measure(slice);
    }
  }
  return pairs.map(([a, b]) => [a.result(), b.result()]);
}

/** One row measured on its own: warm-up, then the measured time in one piece. */
export async function runLoad(spec: LoadSpec, opts: { warmupMs: number; measureMs: number }): Promise<LoadResult> {
  const load = new Load(spec);
  try {
    await load.warmUp(opts.warmupMs);
    await load.measure(opts.measureMs);
    return load.result();
  } finally {
    await load.close();
  }
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** One request outside the load (metrics, checks); throws on a non-2xx answer. */
export async function fetchJson(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<unknown> {
  const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}
