import { z } from 'zod';
import { shown } from '../json-path.js';

// The field types stored records are made of. Amounts and counters are safe integers (money
// is exact only up to Number.MAX_SAFE_INTEGER: contract/money.ts), so a restored record with
// "1e3", 2^60 or no balance is refused before any money move could trip on it.

const intProblem = (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : `expected a safe integer, got ${shown(iss.input)}`);

/** Any safe integer (a ledger entry: positive credit, negative debit). */
export const SafeInt = z.int({ error: intProblem });
/** A safe integer >= 0 (balances, caps, counters, clock times). */
export const Count = z.int({ error: intProblem }).min(0, { error: (iss) => `expected a safe integer >= 0, got ${shown(iss.input)}` });

const stringProblem = (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : `expected a string, got ${shown(iss.input)}`);
export const Text = z.string({ error: stringProblem });
/** An id: a string that is not empty (it is the record's key, or points at one). */
export const Id = z.string({ error: stringProblem }).min(1, 'must not be empty');
/** A creation stamp or another stored time: ISO 8601 (the stamps are ids.ts isoMicros). */
export const Stamp = z.iso.datetime({ offset: true, error: (iss) => (iss.input === undefined ? 'required' : `expected an ISO 8601 time, got ${shown(iss.input)}`) });

export const Env = z.enum(['test', 'live']);
export const WalletCurrency = z.enum(['USD', 'LRD']);
/** A flag. */
export const Flag = z.boolean({ error: (iss) => (iss.input === undefined ? 'required' : `expected true or false, got ${shown(iss.input)}`) });
