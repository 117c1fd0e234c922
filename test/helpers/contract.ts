import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi, openApiPath } from '../../emulator/openapi/document.js';
import { allRoutes } from '../../emulator/registry.js';

// The contract check behind request() (helpers/emulator.ts): every response a test receives
// from a /v1 route is checked against the OpenAPI document the emulator serves — the
// operation's response for that status must exist, carry X-Trace-ID, and its JSON schema must
// accept the body. A drift between what the emulator answers and what /openapi.yaml promises
// fails the test that saw it, instead of waiting for a user's generated client or proxy.
//
// The document is built in-process from the same declarations the server serves it from
// (only `servers` differs), and validated with Ajv's JSON Schema 2020-12 — OpenAPI 3.1's
// dialect — so it is the document that is checked, not the zod schemas it was made from.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://svc.invalid/openapi.json';

interface Operation {
  match: RegExp;
  method: string;
  path: string;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown; examples?: Record<string, unknown> }> }>;
}

interface Contract {
  operations: Operation[];
  validators: Map<string, ValidateFunction>;
  ajv: Ajv2020;
}

let contract: Contract | undefined;

/** Points `#/components/...` references at the registered document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v)]));
  }
  return schema;
}

function load(): Contract {
  if (contract) return contract;
  const doc = buildOpenApi(allRoutes(), { serverUrl: 'http://127.0.0.1' }) as { paths: Record<string, Record<string, Operation['responses'] extends infer R ? { responses: R } : never>>; components: unknown };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  // In the gateway's mount order, so /v1/api/payments/summary is matched before /v1/api/payments/:id, as express does.
  const operations = allRoutes().map((r) => ({
    match: new RegExp(`^${r.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`),
    method: r.method.toUpperCase(),
    path: openApiPath(r.path),
    responses: doc.paths[openApiPath(r.path)][r.method].responses,
  }));
  contract = { operations, validators: new Map(), ajv };
  return contract;
}

export interface SeenResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** Where a response was checked: the documented operation and status (for recorders). */
export interface ContractHit {
  path: string;
  method: string;
  status: number;
}

/**
 * Throws when `res` (to `method` `url`) breaks the document; returns the operation it matched,
 * or undefined for paths the document does not describe (control API, pages, unknown routes).
 */
export function checkContract(method: string, url: string, res: SeenResponse): ContractHit | undefined {
  const { pathname } = new URL(url);
  const c = load();
  const upper = method.toUpperCase();
  // A path no /v1 route serves, or a method the path does not take (express answers those itself).
  const op = c.operations.find((o) => o.method === upper && o.match.test(pathname));
  if (!op) return undefined;
  const where = `${upper} ${pathname} → ${res.status}`;
  const documented = op.responses[String(res.status)];
  if (!documented) throw new Error(`contract: ${where}: status ${res.status} is not documented for ${upper} ${op.path} (documented: ${Object.keys(op.responses).join(', ')}). Body: ${res.text.slice(0, 300)}`);
  if (!res.headers.get('x-trace-id')) throw new Error(`contract: ${where}: no X-Trace-ID header (the document declares it required)`);
  if (upper === 'HEAD') return { path: op.path, method: upper, status: res.status };
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) throw new Error(`contract: ${where}: the document declares no JSON body`);
  if (res.json === undefined) throw new Error(`contract: ${where}: the body is not JSON: ${res.text.slice(0, 200)}`);
  const key = `${upper} ${op.path} ${res.status}`;
  let validate = c.validators.get(key);
  if (!validate) c.validators.set(key, (validate = c.ajv.compile(rebase(schema) as object)));
  if (!validate(res.json)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');
    throw new Error(`contract: ${where}: the body does not match the document's schema: ${errors}. Body: ${res.text.slice(0, 300)}`);
  }
  // An error's code must be one the document lists for this route and status (one example per code).
  const codes = Object.keys(documented.content?.['application/json']?.examples ?? {});
  const code = (res.json as { error?: { code?: string } }).error?.code;
  if (res.status >= 400 && code !== undefined && !codes.includes(code)) {
    throw new Error(`contract: ${where}: error code ${code} is not documented for ${upper} ${op.path} ${res.status} (documented: ${codes.join(', ')})`);
  }
  return { path: op.path, method: upper, status: res.status };
}
