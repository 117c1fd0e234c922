import { join } from 'node:path';
import { startChild } from '../lib/child.js';
import { runLoad } from '../lib/load.js';
import { loadRow } from '../lib/rows.js';
import type { BenchContext, Row, Scenario } from '../lib/types.js';

// The two references, measured in the same run on the same machine as the emulator: a bare
// express 5 route, and an express 5 route that parses and zod-validates a 10-field body.

export const REF_GET = 'reference.express.get';
export const REF_POST = 'reference.express-zod.post';

const referenceBody = JSON.stringify({
  title: 'Coffee beans, 1 kg',
  description: 'Single origin, roasted this week',
  amount: 1200,
  currency: 'USD',
  accepted_methods: ['card', 'momo'],
  expires_at: '2099-01-01T00:00:00Z',
  redirect_url: 'https://shop.example.com/thanks',
  metadata: { order_id: 'ord_1042', channel: 'web' },
  customer_email: 'ada@example.com',
  reference: 'INV-2026-1042',
});

async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const servers = join(ctx.root, 'dist', 'bench', 'servers');

  ctx.log('reference: bare express GET');
  const bare = await startChild<{ base_url: string }>(process.execPath, [join(servers, 'express-bare.js')], ctx.root);
  try {
    const result = await runLoad({
      baseUrl: bare.info.base_url,
      request: () => ({ method: 'GET', path: '/ping' }),
      expectStatus: 200,
      warmupMs: ctx.warmupMs,
      measureMs: ctx.measureMs,
    });
    rows.push(loadRow(REF_GET, 'reference: express 5 GET, constant JSON', result));
  } finally {
    await bare.stop();
  }

  ctx.log('reference: express + zod POST');
  const zod = await startChild<{ base_url: string }>(process.execPath, [join(servers, 'express-zod.js')], ctx.root);
  try {
    const result = await runLoad({
      baseUrl: zod.info.base_url,
      request: () => ({ method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, body: referenceBody }),
      expectStatus: 201,
      warmupMs: ctx.warmupMs,
      measureMs: ctx.measureMs,
    });
    rows.push(loadRow(REF_POST, 'reference: express 5 POST, zod 10 fields', result));
  } finally {
    await zod.stop();
  }
  return rows;
}

export const references: Scenario = { name: 'references', run };
