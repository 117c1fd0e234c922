import type { z } from 'zod';
import type { RequestLogRecord as RecordSchema } from '../../contract/records/system.js';
import { storedCollection, type RecordOf } from '../store/collection.js';

// One /v1 request as the request log keeps it, redacted (fields: contract/records/system.ts). The
// log lives beside the store (log.ts): REQUEST_LOG is only the name its entries have in a world
// snapshot, whose restore checks them against that schema.

export type RequestLogRecord = RecordOf<'request_log'>;
/** One entry, as GET /_emulator/requests/{id} answers it (the record without its ms copy of `at`). */
export type RequestLogEntry = Omit<z.output<typeof RecordSchema>, 'at_ms'>;

export const REQUEST_LOG = storedCollection('request_log');

/** What --request-log defaults to: the newest 10,000 requests. */
export const DEFAULT_REQUEST_LOG = 10_000;
