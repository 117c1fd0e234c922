import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

// The load generator: a fixed number of connections, each with one request in flight
// (pipelining 1), for a fixed time after a warm-up. Latency is measured per request from
// send to the last byte of the body, and every response's status is checked, so a row
// cannot quietly measure how fast the server says 404.

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
  warmupMs: number;
  measureMs: number;
  connections?: number;
  /** Runs between warm-up and measurement (e.g. to reset the server's metrics). */
  beforeMeasure?(): Promise<void>;
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
}

export const CONNECTIONS = 10;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const connections = spec.connections ?? CONNECTIONS;
  const pool = new Pool(spec.baseUrl, { connections, pipelining: 1 });
  let next = 0;
  try {
    await phase(pool, spec, connections, spec.warmupMs, () => next++);
    await spec.beforeMeasure?.();
    const result = await phase(pool, spec, connections, spec.measureMs, () => next++);
    return result;
  } finally {
    await pool.close();
  }
}

async function phase(pool: Pool, spec: LoadSpec, connections: number, ms: number, nextIndex: () => number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + ms;
  const worker = async () => {
    while (performance.now() < deadline) {
      const req = spec.request(nextIndex());
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
        const text = await res.body.text();
        latencies.push(performance.now() - t0);
        if (res.statusCode !== spec.expectStatus) {
          errors++;
          firstError ??= `${req.method} ${req.path} → ${res.statusCode} ${text.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstError ??= `${req.method} ${req.path} → ${(err as Error).message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = performance.now() - start;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors,
    firstError,
    rate: latencies.length / (elapsed / 1000),
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** One request outside the load (metrics, checks). */
export async function fetchJson(url: string, init: { method?: string; headers?: IncomingHttpHeaders | Record<string, string>; body?: string } = {}): Promise<unknown> {
  const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}
