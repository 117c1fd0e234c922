// Every normalizer of the parity suite, in one place. Two hosts never agree on ids, times,
// trace ids, secrets, link codes or their own address; a recording keeps what they must agree
// on — the prefix of an id, the format of a time, which answers name the same object — and
// shows the rest as placeholders:
//
//   pl_sSMKVfQTtlQaH6PO0rhT        → <pl_id:1>        numbered by first appearance in the scenario
//   PL-538RE4UV                    → <link_code:1>    (PL- plus 8 characters)
//   2026-11-25T17:54:12.251000Z    → <timestamp:YYYY-MM-DDThh:mm:ss.ffffffZ>
//   97dd3e57-e797-…                → <uuid>
//   X-Trace-ID                     → <trace_id> (or <sent X-Trace-ID> when it echoes ours)
//   secret / *_secret              → <secret:base64url43> (its format only); secret_hint → <secret_hint:4 chars>
//   the base URL, checkout URLs    → <base_url>/…, <checkout_url>/mandate/<mdt_id:1>
//   this run's nonce, --var values → <run>, <var:payee_id>
//
// Inside the rows of a list (a step's `lists`) ids not seen before stay unnumbered (<pay_id>):
// a sandbox's history must not shift the numbers of everything after it.

interface NormalizerOptions {
  baseUrl: string;
  run: string;
  vars: Record<string, string>;
  webhookUrl?: string;
  /** The keys of the run: should a host echo one, the recording shows <api_key:main>. */
  keys?: Record<string, string | undefined>;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const TIMESTAMP_IN = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LINK_CODE = /^PL-[A-Z0-9]{8}$/;
const LINK_CODE_IN = /\bPL-[A-Z0-9]{8}\b/g;
/** prefix_random: a lowercase prefix (may hold underscores), then 10+ characters with an uppercase letter or a digit. */
const ID = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*?)_((?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]{10,})$/;
const ID_IN = /\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*?)_((?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]{10,})\b/g;
/** {checkout_url}/mandate/{id} and its siblings: the spec's approval URL forms. */
const CHECKOUT_FORM = /^https?:\/\/.+?\/((?:mandate|wallet-mandate|payroll-approval)\/[^/?#]+)$/;

/** How deep a recorded answer goes; the spec's bodies nest a handful of levels. */
const MAX_DEPTH = 64;
/** What stands for everything nested past MAX_DEPTH. */
export const TOO_DEEP = `<nested deeper than ${MAX_DEPTH} levels>`;

/** `2026-11-25T17:54:12.251000Z` → `<timestamp:YYYY-MM-DDThh:mm:ss.ffffffZ>` (the format, digits of the fraction included). */
export function timestampFormat(value: string): string | undefined {
  const m = TIMESTAMP.exec(value);
  if (!m) return undefined;
  const fraction = m[7] ? `.${'f'.repeat(m[7].length - 1)}` : '';
  const zone = m[8] === 'Z' ? 'Z' : m[8].includes(':') ? '±hh:mm' : '±hhmm';
  return `<timestamp:YYYY-MM-DDThh:mm:ss${fraction}${zone}>`;
}

/** A secret shows only its format: 43 base64url characters is what the spec promises. */
function secretFormat(value: string): string {
  return /^[A-Za-z0-9_-]+$/.test(value) ? `<secret:base64url${value.length}>` : '<secret>';
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Normalizer {
  private readonly numbers = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly literal: [RegExp, string][];
  private readonly whole: Map<string, string>;

  constructor(private readonly options: NormalizerOptions) {
    // Longest first: a var value that contains another is replaced whole.
    const pairs: [string, string][] = [
      ...(options.webhookUrl ? [[options.webhookUrl, '<webhook_url>'] as [string, string]] : []),
      [options.baseUrl, '<base_url>'],
      [options.run, '<run>'],
      ...Object.entries(options.keys ?? {}).flatMap(([role, key]) => (key ? [[key, `<api_key:${role}>`] as [string, string]] : [])),
      // Only inputs that name an object of the host (payee_id, manager_phone): a currency or an
      // amount is a value the answer must show as is.
      ...Object.entries(options.vars)
        .filter(([k, v]) => /_(id|phone)$/.test(k) && v.length >= 3)
        .map(([k, v]) => [v, `<var:${k}>`] as [string, string]),
    ];
    this.literal = pairs.sort((a, b) => b[0].length - a[0].length).map(([v, p]) => [new RegExp(escape(v), 'g'), p]);
    this.whole = new Map(pairs);
  }

  /** Numbers start again at 1 in each scenario, so a skipped scenario shifts nothing after it. */
  startScenario(): void {
    this.numbers.clear();
    this.counters.clear();
  }

  private numbered(kind: string, raw: string, allocate: boolean): string {
    const known = this.numbers.get(raw);
    if (known) return known;
    if (!allocate) return `<${kind}>`;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const placeholder = `<${kind}:${n}>`;
    this.numbers.set(raw, placeholder);
    return placeholder;
  }

  /** One string value; `key` is its field name (secrets are known by name). */
  string(value: string, key = '', allocate = true): string {
    if (key === 'secret_hint') return `<secret_hint:${value.length} chars>`;
    if (/(^|_)secret$/.test(key)) return secretFormat(value);
    const whole = this.whole.get(value);
    if (whole) return whole;
    const ts = timestampFormat(value);
    if (ts) return ts;
    if (UUID.test(value)) return '<uuid>';
    if (LINK_CODE.test(value)) return this.numbered('link_code', value, allocate);
    const id = ID.exec(value);
    if (id) return this.numbered(`${id[1]}_id`, value, allocate);
    const form = CHECKOUT_FORM.exec(value);
    if (form && !value.startsWith(`${this.options.baseUrl}/v1/`)) return `<checkout_url>/${this.embedded(form[1], allocate)}`;
    return this.embedded(value, allocate);
  }

  /** Placeholders for what varies inside a longer string (a message, a URL). */
  private embedded(value: string, allocate: boolean): string {
    let out = value;
    for (const [re, placeholder] of this.literal) out = out.replace(re, placeholder);
    out = out.replace(TIMESTAMP_IN, (t) => timestampFormat(t) ?? t);
    out = out.replace(LINK_CODE_IN, (c) => this.numbered('link_code', c, allocate));
    out = out.replace(ID_IN, (raw, prefix: string) => this.numbered(`${prefix}_id`, raw, allocate));
    return out;
  }

  /**
   * A JSON body, deeply; `lists` are JSON paths (`$.data.payments`) whose rows allocate no
   * numbers. Nesting past MAX_DEPTH becomes TOO_DEEP, so a host answering thousands of levels
   * is a difference at that path, not a stack overflow.
   */
  body(value: unknown, lists: string[] = [], path = '$', inList = false, key = '', depth = 0): unknown {
    if (typeof value === 'string') return this.string(value, key, !inList);
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(value)) {
      const rows = inList || lists.includes(path);
      return value.map((v, i) => this.body(v, lists, `${path}[${i}]`, rows, key, depth + 1));
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.body(v, lists, `${path}.${k}`, inList, k, depth + 1)]));
  }

  /** A request path as sent: ids and codes already seen become their placeholders. */
  requestPath(path: string): string {
    return path
      .split('/')
      .map((segment) => (segment === '' ? segment : this.string(decodeURIComponent(segment), '', true)))
      .join('/');
  }

  /** The headers a recording keeps (see RECORDED_HEADERS), normalized. */
  headers(headers: Record<string, string>, sentTraceId?: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (lower === 'x-trace-id') out[lower] = sentTraceId !== undefined && value === sentTraceId ? '<sent X-Trace-ID>' : '<trace_id>';
      else if (lower === 'content-type') out[lower] = value.split(';')[0].trim().toLowerCase();
      else if (isRateLimitHeader(lower)) out[lower] = /^\d+$/.test(value.trim()) ? '<integer>' : this.string(value);
    }
    return out;
  }
}

/**
 * Headers the spec names on every answer (X-Trace-ID, the JSON content type) and rate-limit
 * headers wherever a host sends them (RateLimit-*, X-RateLimit-*, Retry-After): the spec
 * says 429 exists and names no header, so their presence is itself what parity compares.
 */
const isRateLimitHeader = (lower: string): boolean => /^(x-)?rate-?limit/.test(lower) || lower === 'retry-after';

/**
 * Fields whose value, not only their type, must agree: the enumerations of the spec (status
 * words, error codes, event types, currencies, methods, rails, environments) and the envelope's
 * flags. Every other string is compared by its format (placeholder) or JSON type.
 */
export const ENUM_FIELDS = new Set(['success', 'deleted', 'status', 'code', 'type', 'environment', 'currency', 'payment_method', 'rail', 'events', 'accepted_methods', 'category', 'spend_period']);
