import type { Services } from '../services.js';
import { REQUEST_LOG } from './records.js';

// Data dirs written before the request log moved beside the store (log.ts) hold its entries as
// store records. At start they move into the log (older than anything it has; the log is
// written first), then leave the store in one transaction. A disk that refuses that transaction
// leaves them in the store too, and the next start moves them again (an id already in the log
// is not taken twice).

export function adoptStoredRequests(services: Pick<Services, 'store' | 'requestLog' | 'log'>): void {
  const { store, requestLog } = services;
  if (store.count(REQUEST_LOG) === 0) return;
  const stored = [...store.all(REQUEST_LOG)];
  const known = new Set(stored.map((r) => r.id));
  requestLog.replace([...stored, ...requestLog.records().filter((r) => !known.has(r.id))]);
  try {
    store.transaction((tx) => {
      for (const r of stored) tx.delete(REQUEST_LOG, r.id);
    });
  } catch (err) {
    services.log.warn(`request log: ${stored.length} entries of an older data dir stay in the store for now (${(err as Error).message})`);
  }
}
