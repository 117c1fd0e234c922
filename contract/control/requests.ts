import { z } from 'zod';
import { Environment } from '../common.js';

// The request log as the control API shows it (emulator/request-log/): one entry per /v1
// request, newest first, with both bodies redacted (no endpoint secret, no full card number, no
// PIN, no OTP, never the API key: at most its last 4 characters).

const Iso = z.string().meta({ description: 'ISO-8601, microseconds, UTC (emulator clock)' });

export const RequestLogQuery = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).optional(),
  path: z.string().regex(/^\//, 'must start with /').optional().meta({ description: 'A path prefix, e.g. /v1/api/payments' }),
  status: z
    .union([z.enum(['succeeded', 'failed']), z.string().regex(/^[1-5]\d\d$/, 'a status code (100-599), succeeded or failed')])
    .optional()
    .meta({ description: 'A status code, or succeeded (< 400) / failed (>= 400)' }),
  environment: Environment.optional(),
  key: z.string().min(1).optional().meta({ description: "The key's fixture name" }),
  since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Entries at or after this time' }),
  trace_id: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Page size' }),
  before: z.iso.datetime({ offset: true }).optional().meta({ description: 'Entries strictly before this time (pass next_before here)' }),
});

export const RequestIdParams = z.object({ id: z.string().min(1) });

export const RequestLogEntry = z
  .object({
    id: z.string(),
    at: Iso,
    method: z.string(),
    path: z.string().meta({ description: 'The path with its query string, as sent' }),
    status: z.int(),
    duration_ms: z.number().min(0).meta({ description: 'Real time spent answering (not emulator time)' }),
    key_name: z.string().nullable().meta({ description: "The key's fixture name; null when no known key was sent" }),
    key_last4: z.string().nullable(),
    merchant_id: z.string().nullable(),
    environment: Environment.nullable(),
    idempotency_key: z.string().nullable(),
    idempotency: z.enum(['replayed', 'in_flight']).nullable().meta({ description: 'replayed: the stored answer was sent again; in_flight: 409 while the first was running' }),
    trace_id: z.string(),
    error_code: z.string().nullable(),
    fault: z.string().nullable().meta({ description: 'The Svc-Fault header of the answer: the injected faults that fired' }),
    request_body: z.string().nullable().meta({ description: 'The body as the client sent it (JSON or not), redacted; a text that is not JSON and may hold a secret is `[withheld: not JSON, and it may hold a secret]`; null when none was sent' }),
    response_body: z.string().nullable().meta({ description: 'JSON text, redacted' }),
    resources: z.array(z.string()).meta({ description: 'Ids of the records the request created or changed' }),
  })
  .meta({ id: 'RequestLogEntry' });

export const RequestLogPage = z.object({
  requests: z.array(RequestLogEntry).meta({ description: 'Newest first' }),
  next_before: Iso.nullable().meta({ description: "The last entry's at on a non-empty page (pass it as before); null on an empty page" }),
});
