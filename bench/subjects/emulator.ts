import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { LINK_FIELDS } from '../lib/bodies.js';
import { startChild } from '../lib/child.js';
import { fetchJson, type LoadResult } from '../lib/load.js';
import { BENCH_KEY, seedPayments } from '../lib/seed.js';
import type { BenchContext, Row, Subject } from '../lib/types.js';

// The emulator as users run it — the built `svc emulator start` — on a data dir seeded with
// `n` payments of mer_acme (test). Loads: GET a random seeded payment; POST a payment link
// with a fresh idempotency key per request. Around every measured slice of the POST load the
// emulator's own event-loop monitor (/_emulator/metrics) is reset and read, so the stall row
// is the largest stall inside the write load, not during start-up or the GET load.

interface Metrics {
  event_loop_delay_max_ms: number;
  gc_pause_max_ms: number;
  gc_pause_max_kind: string | null;
  cpu_user_ms: number;
  cpu_system_ms: number;
  cpu_wait_ms: number | null;
}

/** What the emulator saw during the measured slices of one load (not its warm-up). */
class Window {
  stallMs = 0;
  gcMaxMs = 0;
  gcMaxKind: string | null = null;
  cpuMs = 0;
  waitMs: number | null = null;
  constructor(private readonly base: string) {}
  readonly before = async () => void (await fetchJson(`${this.base}/_emulator/metrics/reset`, { method: 'POST' }));
  readonly after = async () => {
    const { data } = (await fetchJson(`${this.base}/_emulator/metrics`)) as { data: Metrics };
    this.stallMs = Math.max(this.stallMs, data.event_loop_delay_max_ms);
    if (data.gc_pause_max_ms > this.gcMaxMs) {
      this.gcMaxMs = data.gc_pause_max_ms;
      this.gcMaxKind = data.gc_pause_max_kind;
    }
    this.cpuMs += data.cpu_user_ms + data.cpu_system_ms;
    if (data.cpu_wait_ms !== null) this.waitMs = (this.waitMs ?? 0) + data.cpu_wait_ms;
  };
  /** CPU time per request: comparable across runs even when the machine is busy. */
  cpuPerRequestMs = (r: LoadResult) => (r.requests > 0 ? this.cpuMs / r.requests : undefined);
  describe = (r: LoadResult) => cpuNote(this.cpuPerRequestMs(r));
}

/** A row's note on the emulator's CPU per request (ms), when it reported one. */
export const cpuNote = (ms: number | undefined) => (ms === undefined ? undefined : `emulator CPU ${ms.toFixed(3)} ms/req`);

const linkBody = JSON.stringify(LINK_FIELDS);

const auth = { authorization: `Bearer ${BENCH_KEY}` };

/**
 * `root`: the package to run (default this one; BENCH_BASELINE names another built checkout).
 * `extraArgs`: more `svc emulator start` flags (the request-log rows compare `--request-log 0`).
 * `entry`: what starts it (the coverage row starts both sides with servers/emulator.ts).
 */
export async function startEmulatorWith(ctx: BenchContext, n: number, tag: string, root = ctx.root, extraArgs: string[] = [], entry = ['bin/svc.js', 'emulator', 'start']): Promise<Subject> {
  const dataDir = join(ctx.tmpDir, `emulator-${tag}`);
  mkdirSync(dataDir, { recursive: true });
  ctx.log(`emulator @${tag}: seeding ${n} payments`);
  const seeded = await seedPayments(dataDir, n);

  ctx.log(`emulator @${tag}: starting`);
  const args = [...entry, '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir, ...extraArgs];
  const emulator = await startChild<{ base_url: string }>(process.execPath, args, root);
  const base = emulator.info.base_url;
  const startRow: Row = {
    id: `emulator.start.${tag}`,
    label: `emulator start-up, ${tag} payments stored`,
    maxMs: emulator.readyMs,
    note: `spawn to ready line (snapshot.ndjson ${(seeded.snapshotBytes / 1e6).toFixed(1)} MB; not a target)`,
  };
  try {
    // The seeded payments must be there before their lookups are worth timing.
    await fetchJson(`${base}/v1/api/payments/${seeded.ids[seeded.ids.length - 1]}`, { headers: auth });
  } catch (err) {
    await emulator.stop();
    throw err;
  }

  const reads = new Window(base);
  const writes = new Window(base);
  const run = randomBytes(6).toString('hex');
  return {
    rows: [startRow],
    loads: [
      {
        id: `emulator.get.${tag}`,
        label: `GET /v1/api/payments/{id} @ ${tag}`,
        spec: {
          baseUrl: base,
          request: () => ({ method: 'GET', path: `/v1/api/payments/${seeded.ids[Math.floor(Math.random() * seeded.ids.length)]}`, headers: auth }),
          expectStatus: 200,
          beforeSlice: reads.before,
          afterSlice: reads.after,
        },
        describe: reads.describe,
        cpuPerRequestMs: reads.cpuPerRequestMs,
      },
      {
        id: `emulator.post.${tag}`,
        label: `POST /v1/api/payment-links @ ${tag}`,
        spec: {
          baseUrl: base,
          request: (i) => ({
            method: 'POST',
            path: '/v1/api/payment-links',
            headers: { ...auth, 'content-type': 'application/json', 'x-idempotency-key': `bench-${run}-${i}` },
            body: linkBody,
          }),
          expectStatus: 201,
          beforeSlice: writes.before,
          afterSlice: writes.after,
        },
        describe: writes.describe,
        cpuPerRequestMs: writes.cpuPerRequestMs,
      },
    ],
    finish: async () => {
      const t0 = performance.now();
      await emulator.stop();
      startRow.note += `; SIGTERM to exit (flush) ${((performance.now() - t0) / 1000).toFixed(2)} s`;
      return [
        {
          id: `emulator.stall.${tag}`,
          label: `largest event-loop stall, POST load @ ${tag}`,
          maxMs: writes.stallMs,
          note: `measured inside the emulator (GET /_emulator/metrics); longest GC pause ${writes.gcMaxMs.toFixed(1)} ms${writes.gcMaxKind ? ` (${writes.gcMaxKind})` : ''}${
            writes.waitMs === null ? '' : `; main thread waited ${(writes.waitMs / 1000).toFixed(1)} s for a CPU in ${(ctx.measureMs / 1000).toFixed(0)} s`
          }`,
        },
      ];
    },
  };
}
