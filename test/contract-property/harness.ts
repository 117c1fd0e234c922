import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { request, type ApiResponse } from '../helpers/emulator.js';
import { seededRng, type Rng } from './seeded.js';
import { generate, type Schema } from './schema-gen.js';

// Sends random requests that an OpenAPI document says are valid — every operation, its path,
// query and header parameters and its body — to a running emulator, and sorts the answers:
// accepted (2xx), refused for a reason of state (an id that names nothing, a cap, a balance, a
// link already paid…: `isStateRefusal`), or refused for format, which means the document and
// the server disagree. Every generated part is checked against the document with Ajv before it
// is sent, so what is sent is document-valid by a real validator, not only by our generator.
// Each answer's status must be one the operation documents, and an error's code one its
// description lists.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://svc.invalid/property.json';

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Refusal {
  operation: string;
  sample: number;
  sent: Sent;
  status: number;
  code: string | undefined;
  message: string | undefined;
}

export interface OperationTally {
  operation: string;
  sent: number;
  accepted: number;
  state: number;
  format: Refusal[];
  /** State refusals by code and message (numbers blanked), to see what the run reached. */
  stateReasons: Map<string, number>;
  /** Answers whose status or code the document does not list for the operation. */
  undocumented: Refusal[];
}

export interface PropertyOptions {
  doc: any;
  baseUrl: string;
  seed: number;
  samples: number;
  /** Authorization key (merchant API), or null (control API). */
  apiKey: string | null;
  /** Operations sent after all the others, in this order, with their own number of samples (one that stops the server: 1). */
  last?: Record<string, number>;
  isStateRefusal(op: string, res: { status: number; code?: string; message?: string }, sent: Sent): boolean;
  /** A value for an id field or parameter `name` of the operation at `path` (an id seen earlier), or undefined to generate one. */
  idFor?(name: string, path: string, rng: Rng): string | undefined;
  /** Sees every 2xx answer and the path of its operation (to collect ids). */
  onAccepted?(json: unknown, path: string): void;
}

function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v)]));
  }
  return schema;
}

/** A drawn value the document refuses (a condition between fields, a format beyond its pattern): drawn again. */
class InvalidDraw extends Error {}

/** Ajv over the document's components: `check(schema, value)` throws with Ajv's reasons. */
function validatorFor(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const compiled = new Map<unknown, ValidateFunction>();
  return (schema: unknown, value: unknown, what: string) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = ajv.compile(rebase(schema) as object)));
    if (!v(value)) throw new InvalidDraw(`${what} ${JSON.stringify(value)?.slice(0, 500)} is not valid under the document: ${ajv.errorsText(v.errors)}`);
  };
}

const resolverFor = (doc: any) => (ref: string): any => {
  if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`);
  return ref.slice(2).split('/').reduce((node: any, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
};

/** RFC 3986 dot segments: every URL parser removes `.` and `..` path segments, so no client can send them as an id. */
const isDotSegment = (s: string) => s === '.' || s === '..';

interface Operation {
  id: string;
  method: string;
  path: string;
  op: any;
}

function operationsOf(doc: any): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ id: op.operationId as string, method, path, op })),
  );
}

/** A draw to throw away: an idempotency key this run already sent. */
class UsedKey extends Error {}

/** Idempotency keys (headers and the body's `idempotency_key`): each drawn once per run. */
const isIdempotencyKey = (name: string) => /idempotency[-_]key$/i.test(name);

/**
 * One random request for `operation`, document-valid by Ajv. The generator draws from the
 * schemas; a draw Ajv refuses is made again: conditions between fields (allOf, if/then) hold by
 * rejection, and where a format says more than its pattern (zod's email pattern allows a domain
 * label ending in "-", the email format does not). So is one that repeats an idempotency key: a
 * key seen before with another body is a refusal for state (409), and a fresh key lets every
 * request reach the handler.
 */
function buildRequest(o: Operation, doc: any, rng: Rng, opts: PropertyOptions, check: ReturnType<typeof validatorFor>, usedKeys: Set<string>): Sent {
  let last = '';
  for (let tries = 1; tries <= 500; tries++) {
    try {
      const sent = drawRequest(o, doc, rng, opts, check);
      const keys = [
        ...Object.entries(sent.headers).filter(([name]) => isIdempotencyKey(name)).map(([, v]) => v),
        ...(sent.body && typeof sent.body === 'object' && typeof (sent.body as Record<string, unknown>).idempotency_key === 'string' ? [(sent.body as Record<string, string>).idempotency_key] : []),
      ];
      if (keys.some((k) => usedKeys.has(k))) throw new UsedKey();
      keys.forEach((k) => usedKeys.add(k));
      return sent;
    } catch (err) {
      if (!(err instanceof UsedKey || err instanceof InvalidDraw)) throw err;
      last = err.message || 'an idempotency key already sent';
    }
  }
  throw new Error(`generator bug: no document-valid request for ${o.id} in 500 draws; the last: ${last}`);
}

function drawRequest(o: Operation, doc: any, rng: Rng, opts: PropertyOptions, check: ReturnType<typeof validatorFor>): Sent {
  const resolve = resolverFor(doc);
  // Ids: sometimes one the server handed out earlier (opts.idFor), so the checks behind a lookup run too.
  const pooled = (field: string, s: Schema) => (s.type === 'string' && /(^|_)id$/.test(field) ? opts.idFor?.(field, o.path, rng) : undefined);
  const gen = (schema: Schema) => generate(schema, { rng, resolve, override: pooled });
  let path = o.path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const raw of (o.op.parameters ?? []) as any[]) {
    const p = raw.$ref ? resolve(raw.$ref) : raw;
    if (!p.required && !rng.chance(0.5)) continue;
    let value: unknown;
    for (let tries = 0; ; tries++) {
      value = (p.in === 'path' ? pooled(p.name, p.schema) : undefined) ?? gen(p.schema);
      if (!(p.in === 'path' && isDotSegment(String(value)))) break;
      if (tries > 50) throw new Error(`no path value for ${p.name}`);
    }
    check(p.schema, value, `${p.in} parameter ${p.name}`);
    const text = String(value);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text));
    else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`);
    else if (p.in === 'header') headers[p.name] = text;
  }
  const sent: Sent = { method: o.method.toUpperCase(), path: query.length > 0 ? `${path}?${query.join('&')}` : path, headers };
  const body = o.op.requestBody;
  if (body && (body.required || rng.chance(0.8))) {
    const schema = body.content['application/json'].schema;
    sent.body = gen(schema);
    check(schema, sent.body, 'body');
  }
  return sent;
}

/** FNV-1a of a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export async function runProperty(opts: PropertyOptions): Promise<OperationTally[]> {
  const { doc } = opts;
  const check = validatorFor(doc);
  const all = operationsOf(doc);
  const last = new Map(Object.entries(opts.last ?? {}));
  const tallies: OperationTally[] = [];
  const usedKeys = new Set<string>();
  const plan = [...all.filter((o) => !last.has(o.id)), ...[...last.keys()].map((id) => all.find((o) => o.id === id)!)];
  for (const o of plan) {
    // One random stream per operation, from the seed and its operationId: adding an operation leaves the others' draws alone.
    const rng = seededRng((opts.seed ^ hash(o.id)) >>> 0);
    const tally: OperationTally = { operation: o.id, sent: 0, accepted: 0, state: 0, format: [], stateReasons: new Map(), undocumented: [] };
    tallies.push(tally);
    const samples = last.get(o.id) ?? opts.samples;
    for (let sample = 0; sample < samples; sample++) {
      const sent = buildRequest(o, doc, rng, opts, check, usedKeys);
      const res: ApiResponse = await request(opts.baseUrl, sent.method, sent.path, {
        key: opts.apiKey,
        headers: sent.headers,
        ...(sent.body === undefined ? {} : { rawBody: JSON.stringify(sent.body) }),
      });
      tally.sent++;
      const code = res.json?.error?.code as string | undefined;
      const refusal: Refusal = { operation: o.id, sample, sent, status: res.status, code, message: res.json?.error?.message };
      const documented = o.op.responses[String(res.status)];
      if (!documented || (code !== undefined && !String(documented.description).includes(code))) tally.undocumented.push(refusal);
      if (res.status >= 200 && res.status < 300) {
        tally.accepted++;
        opts.onAccepted?.(res.json, o.path);
      } else if (opts.isStateRefusal(o.id, { status: res.status, code, message: refusal.message }, sent)) {
        tally.state++;
        const reason = `${code}${code === 'VALIDATION_ERROR' ? ` ${String(refusal.message).replace(/\d+/g, 'N').slice(0, 60)}` : ''}`;
        tally.stateReasons.set(reason, (tally.stateReasons.get(reason) ?? 0) + 1);
      } else tally.format.push(refusal);
    }
  }
  return tallies;
}

/** One line per operation, then the totals: what a failing run prints. */
export function report(name: string, seed: number, tallies: OperationTally[]): string {
  const lines = [`${name}: seed ${seed} (replay with SVC_PROPERTY_SEED=${seed})`];
  for (const t of tallies) {
    const reasons = [...t.stateReasons].map(([r, n]) => `${r} ×${n}`).join(', ');
    lines.push(`  ${t.operation.padEnd(34)} sent ${String(t.sent).padStart(3)}  2xx ${String(t.accepted).padStart(3)}  state ${String(t.state).padStart(3)}  format ${t.format.length}${reasons ? `  (${reasons})` : ''}`);
  }
  const sent = tallies.reduce((n, t) => n + t.sent, 0);
  const ok = tallies.reduce((n, t) => n + t.accepted + t.state, 0);
  lines.push(`  total: ${ok}/${sent} accepted or refused for state (${((100 * ok) / sent).toFixed(2)}%)`);
  // Up to two refusals per operation, with everything needed to send them again.
  const show = (what: string, r: Refusal) =>
    lines.push(`  ${what}: ${r.operation} #${r.sample}: ${r.status} ${r.code} ${r.message}\n    ${r.sent.method} ${r.sent.path} ${JSON.stringify(r.sent.headers)}\n    body ${JSON.stringify(r.sent.body)?.slice(0, 600)}`);
  for (const t of tallies) t.format.slice(0, 2).forEach((r) => show('refused for format', r));
  for (const t of tallies) t.undocumented.slice(0, 2).forEach((r) => show('answer the document does not list', r));
  return lines.join('\n');
}
