import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Checks control-API answers against the control API's OpenAPI document (GET
// /_emulator/openapi.json) the way a client generated from it would read them: the operation is
// found from the method and the URL path alone, the answer's status must be documented for it,
// its body must match that status's JSON schema (Ajv, JSON Schema 2020-12: OpenAPI 3.1's
// dialect), and an error's code must be one the document lists for that status. The document
// is the one the emulator serves, not the zod schemas it was made from.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://svc.invalid/control-openapi.json';

type Json = any;

interface Operation {
  operationId: string;
  method: string;
  path: string;
  match: RegExp;
  /** Literal segments first: /faults/log is matched before /faults/{id}, as express does for the same method. */
  literals: number;
  responses: Record<string, Json>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Hit {
  operationId: string;
  status: number;
}

/** Points `#/components/...` references at the registered document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v)]));
  }
  return schema;
}

export class ControlContract {
  readonly operations: Operation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components });
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const segments = path.split('/');
        this.operations.push({
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          match: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
          literals: segments.filter((s) => !s.startsWith('{')).length,
          responses: op.responses,
        });
      }
    }
    this.operations.sort((a, b) => b.literals - a.literals);
  }

  /** Throws when the answer to `method` `path` breaks the document; returns the operation and status it matched. */
  check(method: string, path: string, res: Answer): Hit {
    const upper = method.toUpperCase();
    const pathname = new URL(path, 'http://x').pathname;
    const op = this.operations.find((o) => o.method === upper && o.match.test(pathname));
    if (!op) throw new Error(`control contract: ${upper} ${pathname} is not in the document`);
    const where = `${upper} ${pathname} → ${res.status}`;
    const documented = op.responses[String(res.status)];
    if (!documented) throw new Error(`control contract: ${where}: status ${res.status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')}). Body: ${res.text.slice(0, 300)}`);
    if (!res.headers.get('x-trace-id')) throw new Error(`control contract: ${where}: no X-Trace-ID header`);
    const media = documented.content?.['application/json'];
    if (!media?.schema) throw new Error(`control contract: ${where}: the document declares no JSON body`);
    if (res.json === undefined) throw new Error(`control contract: ${where}: the body is not JSON: ${res.text.slice(0, 200)}`);
    this.validate(`${op.operationId} ${res.status}`, media.schema, res.json, where, res.text);
    const code = (res.json as { error?: { code?: string } }).error?.code;
    if (res.status >= 400 && !Object.keys(media.examples ?? {}).includes(code ?? '')) {
      throw new Error(`control contract: ${where}: error code ${code} is not documented for ${op.operationId} ${res.status} (documented: ${Object.keys(media.examples ?? {}).join(', ')})`);
    }
    return { operationId: op.operationId, status: res.status };
  }

  /** Validates `value` against `schema` (a schema of this document); throws naming what failed. */
  validate(key: string, schema: unknown, value: unknown, where = key, text = JSON.stringify(value)): void {
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = this.ajv.compile(rebase(schema) as object)));
    if (!validate(value)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');
      throw new Error(`control contract: ${where}: the body does not match the document's schema: ${errors}. Body: ${text.slice(0, 300)}`);
    }
  }
}
