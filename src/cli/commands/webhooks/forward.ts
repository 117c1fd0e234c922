import { request } from 'undici';
import { signPayload } from '../../../../contract/signature.js';
import type { Output } from '../../output.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';

// One forward of a webhook body to the developer's local URL: the raw bytes, the Svc-* headers,
// signed with the given secret (listen) or passed through as received (live receiver).

interface ForwardResult {
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** The spec's acknowledgement window. */
const FORWARD_TIMEOUT_MS = 10_000;

export function listenHeaders(secret: string, body: string, type: string, deliveryId: string): Record<string, string> {
  return {
    'svc-signature': signPayload(secret, body, Math.floor(Date.now() / 1000)),
    'svc-event': type,
    'svc-delivery': deliveryId,
  };
}

export async function forward(url: string, body: string | Buffer, svcHeaders: Record<string, string>): Promise<ForwardResult> {
  const started = performance.now();
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'svc-cli-webhooks', ...svcHeaders },
      body,
      headersTimeout: FORWARD_TIMEOUT_MS,
      bodyTimeout: FORWARD_TIMEOUT_MS,
    });
    await res.body.dump();
    return { status_code: res.statusCode, latency_ms: Math.round(performance.now() - started), error: null };
  } catch (err) {
    return { status_code: null, latency_ms: Math.round(performance.now() - started), error: forwardError(err) };
  }
}

/** A failed forward in words (the HTTP library's codes mean nothing to the reader). */
function forwardError(err: unknown): string {
  const code = codeOf(err);
  if (code === 'ECONNREFUSED') return 'connection refused (is your app running?)';
  if (/TIMEOUT/.test(code ?? '')) return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'the app closed the connection without answering';
  return messageOf(err);
}

/** The delivery id listen gives a streamed event: stable, so a replay carries the same Svc-Delivery. */
export const listenDeliveryId = (eventId: string) => `ldv_${eventId.replace(/^evt_/, '')}`;

/** One line per forward: time, type, delivery id, target status, latency (or a JSON line). */
export function printForward(out: Output, ids: { type: string; event_id: string; delivery_id: string }, r: ForwardResult): void {
  const time = new Date().toISOString();
  if (out.json) {
    out.print(JSON.stringify({ time, ...ids, ...r }));
    return;
  }
  const ok = r.status_code !== null && r.status_code >= 200 && r.status_code < 300;
  const status = r.status_code === null ? out.c.red(`✗ ${r.error}`) : ok ? out.c.green(`→ ${r.status_code}`) : out.c.red(`→ ${r.status_code}`);
  out.print(`${out.c.dim(time.slice(11, 19))}  ${ids.type.padEnd(22)} ${ids.delivery_id}  ${status}  ${out.c.dim(`${r.latency_ms} ms`)}`);
}
