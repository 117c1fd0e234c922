// A request-log entry as a curl command that sends it again, runnable as pasted: the base URL the
// CLI or dashboard used is written inline; the key stays a variable ($SVC_API_KEY) and is never
// printed (the log keeps at most its last 4 characters): a first comment line names it. Shared by
// `svc logs get --curl` and the dashboard's "copy as curl". Plain code, no zod: the CLI's cold
// start may read it.

interface CurlSource {
  method: string;
  /** Path and query, as sent (redacted). */
  path: string;
  key_name: string | null;
  key_last4: string | null;
  idempotency_key: string | null;
  /** The text sent (redacted, or WITHHELD), or null when no body was sent. */
  request_body: string | null;
}

/** What the request log puts in place of a secret's value (contract/redact.ts). */
export const REDACTED = '[redacted]';
/** What the request log keeps of a request body that is not JSON and may hold a secret. */
export const WITHHELD = '[withheld: not JSON, and it may hold a secret]';

/** Whether a logged text lost something to redaction (a value, a card's digits, a key, the whole text): a replay of it needs filling in. */
export const lostToRedaction = (text: string | null): boolean => text !== null && (text.includes(REDACTED) || text.includes(WITHHELD) || /\*{4}|svc_(test|live)_(…|%E2%80%A6)/.test(text));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(e: CurlSource, baseUrl: string): string {
  const lost = lostToRedaction(e.request_body) || lostToRedaction(e.path);
  const comments = [e.key_name === null ? '# No known API key was sent, so none is sent here.' : `# export SVC_API_KEY=…   (the key ${e.key_name.replace(/\s/g, ' ')}, ending ${e.key_last4 ?? '?'}: svc emulator keys)`];
  if (lost) comments.push('# Values were redacted in the log: fill them in.');
  // [ ] { } would be curl's URL globbing.
  const url = `${baseUrl.replace(/\/+$/, '')}${e.path}`.replace(/[[\]{}]/g, encodeURIComponent);
  const parts = [`curl ${e.method === 'HEAD' ? '-I' : `-X ${e.method}`} ${quote(url)}`];
  if (e.key_name !== null) parts.push(`-H "Authorization: Bearer $SVC_API_KEY"`);
  if (e.idempotency_key !== null) {
    // The one route whose header has no X- prefix (spec: payroll runs).
    const header = e.method === 'POST' && /^\/v1\/api\/payroll\/runs(\?|$)/.test(e.path) ? 'Idempotency-Key' : 'X-Idempotency-Key';
    if (!lost) parts.push(`-H ${quote(`${header}: ${e.idempotency_key}`)}`);
    else {
      // The logged key holds the original body: sent with another, it could only be a 409.
      comments.push('# A new idempotency key: the logged one holds the body as first sent.');
      parts.push(`-H "${header}: $(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')"`);
    }
  }
  if (e.request_body !== null) parts.push(`-H 'Content-Type: application/json'`, `-d ${quote(e.request_body)}`);
  return `${comments.join('\n')}\n${parts.join(' \\\n  ')}`;
}
