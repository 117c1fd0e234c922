import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import { fetchJson, runLoad } from '../lib/load.js';
import { loadRow, msAtMost, rateAtLeast } from '../lib/rows.js';
import { BENCH_KEY, seedPayments } from '../lib/seed.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';
import { REF_GET, REF_POST } from './references.js';

// The emulator at two store sizes: `svc emulator start` (the built binary) on a data dir
// seeded with 1k and then 100k payments. At each size: GET a random seeded payment, then
// POST payment links with a fresh idempotency key per request, while the emulator's own
// event-loop monitor (GET /_emulator/metrics) records the largest stall of the write load.

const SIZES = [
  { n: 1_000, tag: '1k' },
  { n: 100_000, tag: '100k' },
] as const;

interface ReadyLine {
  base_url: string;
}

interface Metrics {
  event_loop_delay_max_ms: number;
}

const linkBody = JSON.stringify({
  title: 'Coffee beans, 1 kg',
  description: 'Single origin, roasted this week',
  amount: 1200,
  currency: 'USD',
  accepted_methods: ['card', 'momo'],
  expires_at: '2099-01-01T00:00:00Z',
  redirect_url: 'https://shop.example.com/thanks',
  metadata: { order_id: 'ord_1042', channel: 'web' },
});

const auth = { authorization: `Bearer ${BENCH_KEY}` };

async function measureSize(ctx: BenchContext, n: number, tag: string): Promise<Row[]> {
  const dataDir = join(ctx.tmpDir, `emulator-${tag}`);
  mkdirSync(dataDir, { recursive: true });
  ctx.log(`emulator @${tag}: seeding ${n} payments`);
  const seeded = await seedPayments(dataDir, n);

  ctx.log(`emulator @${tag}: starting`);
  const args = ['bin/svc.js', 'emulator', 'start', '--port', '0', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir];
  const emulator = await startChild<ReadyLine>(process.execPath, args, ctx.root);
  const base = emulator.info.base_url;
  const rows: Row[] = [
    {
      id: `emulator.start.${tag}`,
      label: `emulator start, ${tag} payments stored`,
      note: `ready in ${(emulator.readyMs / 1000).toFixed(2)} s (store.json ${(seeded.snapshotBytes / 1e6).toFixed(1)} MB; seeding took ${(seeded.seedMs / 1000).toFixed(1)} s)`,
    },
  ];
  try {
    // A seeded payment must be there before its lookups are worth timing.
    await fetchJson(`${base}/v1/api/payments/${seeded.ids[0]}`, { headers: auth });

    ctx.log(`emulator @${tag}: GET /v1/api/payments/{id}`);
    const get = await runLoad({
      baseUrl: base,
      request: () => ({ method: 'GET', path: `/v1/api/payments/${seeded.ids[Math.floor(Math.random() * seeded.ids.length)]}`, headers: auth }),
      expectStatus: 200,
      warmupMs: ctx.warmupMs,
      measureMs: ctx.measureMs,
    });
    rows.push(loadRow(`emulator.get.${tag}`, `GET /v1/api/payments/{id} @ ${tag}`, get));

    ctx.log(`emulator @${tag}: POST /v1/api/payment-links`);
    const run = randomBytes(6).toString('hex');
    const post = await runLoad({
      baseUrl: base,
      request: (i) => ({
        method: 'POST',
        path: '/v1/api/payment-links',
        headers: { ...auth, 'content-type': 'application/json', 'x-idempotency-key': `bench-${run}-${i}` },
        body: linkBody,
      }),
      expectStatus: 201,
      warmupMs: ctx.warmupMs,
      measureMs: ctx.measureMs,
      beforeMeasure: async () => void (await fetchJson(`${base}/_emulator/metrics/reset`, { method: 'POST' })),
    });
    const metrics = ((await fetchJson(`${base}/_emulator/metrics`)) as { data: Metrics }).data;
    rows.push(loadRow(`emulator.post.${tag}`, `POST /v1/api/payment-links @ ${tag}`, post));
    rows.push({
      id: `emulator.stall.${tag}`,
      label: `largest event-loop stall, POST load @ ${tag}`,
      maxMs: metrics.event_loop_delay_max_ms,
      note: 'measured in the emulator (GET /_emulator/metrics)',
    });
  } finally {
    const t0 = performance.now();
    await emulator.stop();
    rows[0].note += `; stop + flush ${((performance.now() - t0) / 1000).toFixed(2)} s`;
  }
  return rows;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { n, tag } of SIZES) rows.push(...(await measureSize(ctx, n, tag)));
  return rows;
}

const targets: Target[] = [
  rateAtLeast('emulator.get.1k', REF_GET, 0.5, 'bare express'),
  rateAtLeast('emulator.get.100k', REF_GET, 0.5, 'bare express'),
  rateAtLeast('emulator.post.1k', REF_POST, 0.4, 'express + zod'),
  rateAtLeast('emulator.post.100k', REF_POST, 0.4, 'express + zod'),
  rateAtLeast('emulator.post.100k', 'emulator.post.1k', 0.8, 'POST @ 1k'),
  msAtMost('emulator.post.100k', 'p99Ms', 50, 'p99'),
  msAtMost('emulator.stall.1k', 'maxMs', 50, 'stall'),
  msAtMost('emulator.stall.100k', 'maxMs', 50, 'stall'),
];

export const emulator: Scenario = { name: 'emulator', run, targets };
