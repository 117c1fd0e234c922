import { collection } from '../store/collection.js';
import type { StoredRecord } from '../store/store.js';

// One /v1 request as the request log keeps it, oldest first (time order: the bound and retention
// drop from the front). The log lives beside the store (log.ts), not in it: REQUEST_LOG is the
// name its entries have in a world snapshot, whose restore checks them against their schema.

export interface RequestLogRecord extends StoredRecord {
  id: string;
  /** Emulator clock, unique microsecond stamp (the list's cursor). */
  at: string;
  at_ms: number;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  key_name: string | null;
  key_last4: string | null;
  merchant_id: string | null;
  environment: 'test' | 'live' | null;
  idempotency_key: string | null;
  idempotency: 'replayed' | 'in_flight' | null;
  trace_id: string;
  error_code: string | null;
  fault: string | null;
  request_body: string | null;
  response_body: string | null;
  resources: string[];
}

export const REQUEST_LOG = collection<RequestLogRecord>()('request_log');

/** What --request-log defaults to: the newest 10,000 requests. */
export const DEFAULT_REQUEST_LOG = 10_000;
