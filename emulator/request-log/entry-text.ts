import { formatMicros } from '../ids.js';
import type { RequestLogRecord } from './records.js';

// One request log entry as bytes: how the log keeps it in memory (log.ts) and on disk
// (log-file.ts), the same bytes in both places.
//
//   <head>\t<request body><response body>\n
//
// <head> is a JSON array of the entry's other fields, ending with the byte lengths of the two
// bodies (-1 for no body). Its numbers are small integers where they can be (turning a large or
// fractional number into text was a third of the head's cost): `at` as µs since the epoch,
// `at_ms` as how many ms it lies behind `at` (0 for the emulator's own entries), and
// `duration_ms` in whole µs ([ms] when it has finer digits, as only a restored world's may). The bodies follow as they are (JSON text, already redacted), not
// as JSON strings: making an entry escapes no body, and reading one unescapes none. A head
// holds no raw tab or newline (JSON.stringify escapes them), so a reader finds where the
// bodies start; the lengths say where they end, so a body may hold any byte. Bodies from the
// API are JSON without raw newlines, so in practice an entry is one line of text.

const VERSION = 1;
const TAB = 9;
const NEWLINE = 10;

/**
 * An entry's fields as its head keeps them: the record's, `at` as µs since the epoch (`micros`),
 * and `at` and `id` themselves only when they are not what `micros` gives (null: they are), as
 * for every entry the emulator makes; only a restored world's may differ.
 */
export interface EntryFields {
  id: string | null;
  at: string | null;
  micros: number;
  at_ms: number;
  method: string;
  path: string;
  status: number;
  /** Whole µs, or [ms] when the ms have finer digits than µs (a restored world's). */
  duration_us: number | [ms: number];
  key_name: string | null;
  key_last4: string | null;
  merchant_id: string | null;
  environment: RequestLogRecord['environment'];
  idempotency_key: string | null;
  idempotency: RequestLogRecord['idempotency'];
  trace_id: string;
  error_code: string | null;
  fault: string | null;
  resources: string[];
}

/** An entry's text in its parts (written into memory one after the other, never joined). */
export interface EntryText {
  fields: EntryFields;
  head: string;
  request: string | null;
  response: string | null;
  requestBytes: number;
  responseBytes: number;
}

export function entryText(f: EntryFields, request: string | null, response: string | null): EntryText {
  const requestBytes = request === null ? -1 : Buffer.byteLength(request);
  const responseBytes = response === null ? -1 : Buffer.byteLength(response);
  const head = JSON.stringify([
    VERSION,
    f.id,
    f.at,
    f.micros,
    Math.floor(f.micros / 1000) - f.at_ms,
    f.method,
    f.path,
    f.status,
    f.duration_us,
    f.key_name,
    f.key_last4,
    f.merchant_id,
    f.environment,
    f.idempotency_key,
    f.idempotency,
    f.trace_id,
    f.error_code,
    f.fault,
    f.resources,
    requestBytes,
    responseBytes,
  ]);
  return { fields: f, head, request, response, requestBytes, responseBytes };
}

/** A whole record's text (a restored world's, an older data dir's); `micros` is its `at`. */
export function recordText(r: RequestLogRecord, micros: number): EntryText {
  const canonicalAt = r.at === formatMicros(micros);
  const ms = r.duration_ms;
  const us = Math.round(ms * 1000);
  return entryText(
    {
      id: canonicalAt && r.id === idOf(r.at) ? null : r.id,
      at: canonicalAt ? null : r.at,
      micros,
      at_ms: r.at_ms,
      method: r.method,
      path: r.path,
      status: r.status,
      duration_us: us / 1000 === ms ? us : [ms],
      key_name: r.key_name,
      key_last4: r.key_last4,
      merchant_id: r.merchant_id,
      environment: r.environment,
      idempotency_key: r.idempotency_key,
      idempotency: r.idempotency,
      trace_id: r.trace_id,
      error_code: r.error_code,
      fault: r.fault,
      resources: r.resources,
    },
    r.request_body,
    r.response_body,
  );
}

/** The id the emulator gives an entry stamped `at`: req_ and the digits of `at`. */
export const idOf = (at: string) =>
  // The usual shape (2026-11-25T17:55:31.874003Z) by slices: a third of the regex's time.
  at.length === 27 && at.charCodeAt(26) === 90
    ? `req_${at.slice(0, 4)}${at.slice(5, 7)}${at.slice(8, 10)}${at.slice(11, 13)}${at.slice(14, 16)}${at.slice(17, 19)}${at.slice(20, 26)}`
    : `req_${at.replace(/\D/g, '')}`;

type Head = [number, string | null, string | null, number, number, string, string, number, number | [ms: number], string | null, string | null, string | null, RequestLogRecord['environment'], string | null, RequestLogRecord['idempotency'], string, string | null, string | null, string[], number, number];

/**
 * The entry whose text starts at `start` of `buf`, and where it ends (after its newline); null
 * when no whole, well-formed entry starts there (a torn or damaged one).
 */
export function decodeEntry(buf: Buffer, start: number, limit = buf.length): { record: RequestLogRecord; micros: number; customId: string | null; end: number } | null {
  const tab = buf.indexOf(TAB, start);
  if (tab === -1 || tab >= limit) return null;
  let head: Head;
  try {
    head = JSON.parse(buf.toString('utf8', start, tab)) as Head;
  } catch {
    return null;
  }
  if (!Array.isArray(head) || head.length !== 21 || head[0] !== VERSION || !Number.isSafeInteger(head[3]) || typeof head[4] !== 'number' || typeof head[7] !== 'number') return null;
  const [, id, storedAt, micros, msBehind, method, path, status, duration, keyName, keyLast4, merchantId, environment, idemKey, idempotency, traceId, errorCode, fault, resources, requestBytes, responseBytes] = head;
  const requestStart = tab + 1;
  const responseStart = requestStart + Math.max(requestBytes, 0);
  const end = responseStart + Math.max(responseBytes, 0);
  if (!Number.isInteger(requestBytes) || !Number.isInteger(responseBytes) || end >= limit || buf[end] !== NEWLINE) return null;
  const at = storedAt ?? formatMicros(micros);
  return {
    micros,
    customId: id,
    record: {
      id: id ?? idOf(at),
      at,
      at_ms: Math.floor(micros / 1000) - msBehind,
      method,
      path,
      status,
      duration_ms: Array.isArray(duration) ? duration[0] : duration / 1000,
      key_name: keyName,
      key_last4: keyLast4,
      merchant_id: merchantId,
      environment,
      idempotency_key: idemKey,
      idempotency,
      trace_id: traceId,
      error_code: errorCode,
      fault,
      request_body: requestBytes < 0 ? null : buf.toString('utf8', requestStart, responseStart),
      response_body: responseBytes < 0 ? null : buf.toString('utf8', responseStart, end),
      resources,
    },
    end: end + 1,
  };
}

// Between entries a file may hold a line saying which entries have left the log since (the bound,
// retention): {"dropped_to":<µs>} — every entry stamped at or before it is gone. A start reads
// the last one and leaves those entries out, so an entry that left never comes back (not even
// with a larger --request-log), although its segment file is still there.
const DROPPED = '{"dropped_to":';

export const droppedLine = (micros: number) => `${DROPPED}${micros}}\n`;

/** The `dropped_to` line at `start`, and where it ends; null when the line there is not one. */
export function decodeDropped(buf: Buffer, start: number, limit = buf.length): { micros: number; end: number } | null {
  if (buf[start] !== 0x7b) return null;
  const nl = buf.indexOf(NEWLINE, start);
  if (nl === -1 || nl >= limit) return null;
  try {
    const line = JSON.parse(buf.toString('utf8', start, nl)) as { dropped_to?: unknown };
    return Number.isSafeInteger(line.dropped_to) ? { micros: line.dropped_to as number, end: nl + 1 } : null;
  } catch {
    return null;
  }
}

/** Where the next entry may start after damage at `from`: past the next newline (-1: none). */
export function nextLine(buf: Buffer, from: number, limit = buf.length): number {
  const nl = buf.indexOf(NEWLINE, from);
  return nl === -1 || nl >= limit ? -1 : nl + 1;
}
