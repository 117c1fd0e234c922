import { storedCollection, type RecordOf } from '../store/collection.js';
import { hash } from 'node:crypto'; // one-shot: no Hash object per request
import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';
import { ApiError } from '../errors.js';
import { BODY_KEY_RULE, bodyKeyProblem, HEADER_KEY_RULE, headerKeyProblem, keyHeld, type IdempotencyHeader } from '../../contract/idempotency.js';
import { isRecord } from '../../contract/json-path.js';

// The spec's eight idempotency rules, once, for every route that takes a key.
//
// A record is scoped per merchant (rule 3) and fingerprinted by method, path, environment and
// the canonical JSON of the body: the same key on another route, in the other environment or
// with another body is a 409 IDEMPOTENCY_CONFLICT (rule 5). The stored response is the exact
// bytes and status first sent (rule 6). While the first request runs, a duplicate gets 409
// IDEMPOTENCY_IN_FLIGHT (rule 7), which clients retry. Records expire 24 h after first use
// by the emulator's clock (rule 3), and are written in the same store transaction as the
// resource they created, so a crash can never keep one without the other.

export const IDEMPOTENCY = storedCollection('idempotency');

export type IdempotencyRecord = RecordOf<'idempotency'>;

/**
 * Rules 2 and 4 for a header key: whatever node's parser let through is a key, if it is 1 to
 * 255 bytes long (contract/idempotency.ts). Characters are not checked: HTTP already decided.
 */
export function checkKey(header: IdempotencyHeader, value: string | undefined, required: boolean): string | undefined {
  if (value === undefined) {
    if (required) throw new ApiError('IDEMPOTENCY_KEY_REQUIRED', `This route requires an ${header} header.`);
    return undefined;
  }
  const problem = headerKeyProblem(value);
  if (problem) throw new ApiError('IDEMPOTENCY_KEY_INVALID', `${header} ${problem}; it must be ${HEADER_KEY_RULE}.`);
  return value;
}

/** A body-field key (`policy.bodyField`, `policy.routeKeyField`): any Unicode string of 1 to 255 characters. */
export function checkBodyKey(field: string, body: unknown): string {
  const value = isRecord(body) ? body[field] : undefined;
  if (value === undefined) throw new ApiError('IDEMPOTENCY_KEY_REQUIRED', `This route requires the body field ${field}.`);
  if (typeof value !== 'string') throw new ApiError('IDEMPOTENCY_KEY_INVALID', `${field} is ${value === null ? 'null' : `a ${Array.isArray(value) ? 'array' : typeof value}`}; it must be ${BODY_KEY_RULE}.`);
  const problem = bodyKeyProblem(value);
  if (problem) throw new ApiError('IDEMPOTENCY_KEY_INVALID', `${field} ${problem}; it must be ${BODY_KEY_RULE}.`);
  return value;
}

export function fingerprint(method: string, path: string, environment: string, body: unknown): string {
  return hash('sha256', `${method} ${path}\n${environment}\n${canonicalJson(body)}`, 'hex');
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same body. */
function canonicalJson(value: unknown): string {
  if (!isRecord(value)) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

export class IdempotencyLedger {
  private readonly inFlight = new Set<string>();
  constructor(private readonly services: Services) {}

  private recordId(merchantId: string, key: string) {
    return `${merchantId}:${key}`;
  }

  /** Returns the stored response to replay, or undefined when the request should run. */
  begin(merchantId: string, key: string, print: string): { status: number; body: string } | undefined {
    const id = this.recordId(merchantId, key);
    if (this.inFlight.has(id)) throw new ApiError('IDEMPOTENCY_IN_FLIGHT', 'A request with this idempotency key is still being processed; retry shortly.');
    const stored = this.services.store.get(IDEMPOTENCY, id);
    if (stored && keyHeld(stored.created_at_ms, this.services.clock.now())) {
      if (stored.fingerprint !== print) {
        throw new ApiError('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used with a different request body (or route, or environment).');
      }
      return { status: stored.status, body: stored.body };
    }
    this.inFlight.add(id);
    return undefined;
  }

  /** Saves the response inside the transaction that produced it. */
  save(tx: Transaction, merchantId: string, key: string, print: string, status: number, body: string): void {
    tx.put(IDEMPOTENCY, {
      id: this.recordId(merchantId, key),
      merchant_id: merchantId,
      key,
      fingerprint: print,
      status,
      body,
      created_at_ms: this.services.clock.now(),
    });
  }

  end(merchantId: string, key: string): void {
    this.inFlight.delete(this.recordId(merchantId, key));
  }
}
