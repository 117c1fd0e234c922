import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../emulator/store/file-store.js';
import { PAYMENTS, type PaymentRecord } from '../../emulator/resources/payments/domain.js';
import { formatMicros, newId, newUuid } from '../../emulator/ids.js';

// Seeds a data dir with `count` payments of mer_acme in the test environment, through the
// store's own API (one transaction, then a close that writes the snapshot), so the emulator
// loads exactly what it would have written itself. The merchants and keys are not seeded
// here: the emulator seeds its fixtures into a store that has no merchants, and the default
// fixtures hold the test key the bench uses.

export const BENCH_MERCHANT = 'mer_acme';
export const BENCH_KEY = 'svc_test_acme0all0scopes0000000000001';

const STATUSES: PaymentRecord['status'][] = ['completed', 'completed', 'completed', 'failed', 'pending'];
const METHODS: PaymentRecord['payment_method'][] = ['card', 'momo', 'wallet'];

export interface SeedResult {
  ids: string[];
  seedMs: number;
  snapshotBytes: number;
}

/** Payment number `i` of `count` seeded at `now`: the same records for the emulator and the json-server peer. */
export function benchPayment(i: number, count: number, now: number): PaymentRecord {
  // One payment a second, ending a minute ago: created_at increases in insertion order, as the
  // payments list requires, and the emulator's new stamps come after all of them.
  const firstMs = now - 60_000 - count * 1000;
  return {
    id: newId('pay'),
    merchant_id: BENCH_MERCHANT,
    environment: 'test',
    amount: 100 + (i % 5000),
    currency: i % 4 === 0 ? 'LRD' : 'USD',
    status: STATUSES[i % STATUSES.length],
    payment_method: METHODS[i % METHODS.length],
    mandate_id: null,
    payment_link_id: null,
    sub_merchant_id: null,
    idempotency_key: newUuid(),
    created_at: formatMicros((firstMs + i * 1000) * 1000),
  };
}

export async function seedPayments(dataDir: string, count: number, now = Date.now()): Promise<SeedResult> {
  const t0 = performance.now();
  const store = await FileStore.open(dataDir);
  const ids: string[] = [];
  store.transaction((tx) => {
    for (let i = 0; i < count; i++) {
      const payment = benchPayment(i, count, now);
      ids.push(payment.id);
      tx.put(PAYMENTS, payment);
    }
  });
  await store.close();
  return { ids, seedMs: performance.now() - t0, snapshotBytes: statSync(join(dataDir, 'snapshot.ndjson')).size };
}
