// A request-log entry as a curl command that sends it again: the base URL and key come from
// the environment ($SVC_BASE_URL, $SVC_API_KEY), never the key itself (the log keeps at most
// its last 4 characters). Shared by `svc logs get --curl` and the dashboard's "copy as curl".
// Plain code, no zod: the CLI's cold start may read it.

interface CurlSource {
  method: string;
  /** Path and query, as sent. */
  path: string;
  idempotency_key: string | null;
  /** The text sent (redacted, or WITHHELD), or null when no body was sent. */
  request_body: string | null;
}

/** What the request log puts in place of a secret's value (emulator/request-log/redact.ts). */
export const REDACTED = '[redacted]';
/** What the request log keeps of a request body that is not JSON and may hold a secret. */
export const WITHHELD = '[withheld: not JSON, and it may hold a secret]';

/** Whether a logged body lost something to redaction (a value, a card's digits, the whole text): a replay of it needs filling in. */
export const lostToRedaction = (body: string | null): boolean => body !== null && (body.includes(REDACTED) || body.includes(WITHHELD) || /•{4}|\*{4}/.test(body));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(e: CurlSource): string {
  const parts = [`curl -X ${e.method} "$SVC_BASE_URL"${quote(e.path)}`, `-H "Authorization: Bearer $SVC_API_KEY"`];
  if (e.idempotency_key !== null) {
    // The one route whose header has no X- prefix (spec: payroll runs).
    const header = e.method === 'POST' && /^\/v1\/api\/payroll\/runs(\?|$)/.test(e.path) ? 'Idempotency-Key' : 'X-Idempotency-Key';
    parts.push(`-H ${quote(`${header}: ${e.idempotency_key}`)}`);
  }
  if (e.request_body !== null) parts.push(`-H 'Content-Type: application/json'`, `-d ${quote(e.request_body)}`);
  return parts.join(' \\\n  ');
}
