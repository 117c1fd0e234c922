import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { errorEnvelope } from '../../contract/common.js';
import { STORE_RETRY_AFTER_SECONDS } from '../store/store-write-error.js';
import { FIELD_VALUE_PATTERN, TRACE_ID_RULE } from '../../contract/header-safe.js';
import { SchemaComponents, type JsonSchema } from './schemas.js';

// An OpenAPI 3.1 document, built from route declarations: the merchant API's (document.ts,
// GET /openapi.yaml) and the control API's (control-document.ts, GET /_emulator/openapi.yaml)
// both come through here. Each API says what its routes are and what its surroundings add to
// every one (security, error codes, extra headers); this file writes operations, parameters,
// bodies, responses and error envelopes the same way for both, so neither document can drift
// from the zod schemas the servers validate with.

type Operation = JsonSchema;

/** One operation, whichever API it belongs to. */
export interface OperationSpec {
  method: 'get' | 'post' | 'delete';
  /** Express-style template as served (prefix included): /_emulator/faults/:id */
  path: string;
  operationId: string;
  summary: string;
  /** Notes under the summary (Markdown), if any. */
  description?: string;
  tag: string;
  security: JsonSchema[];
  /** `x-…` fields of the operation. */
  extensions?: JsonSchema;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
  status: 200 | 201;
  /** Every error code the operation can answer with. */
  errors: ErrorCode[];
  /** Header parameters besides X-Trace-ID (an idempotency key). */
  headers?: JsonSchema[];
  /** Response headers of a success besides X-Trace-ID. */
  successHeaders?: JsonSchema;
  /** The example message of an error code. */
  exampleMessage(code: ErrorCode): string;
}

/** One event the API POSTs to its users' endpoints: an entry of OpenAPI 3.1's `webhooks`. */
export interface WebhookSpec {
  /** The event type, the key under `webhooks`. */
  name: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The whole request body (converted as output: what the sender writes). */
  payload: z.ZodType;
  /** Header parameters every delivery carries. */
  headers: JsonSchema[];
  /** What the receiver answers, and what each answer means to the sender. */
  responses: JsonSchema;
}

/** What the document says around its operations. */
interface DocumentFrame {
  info: JsonSchema;
  serverUrl: string;
  security: JsonSchema[];
  securitySchemes: JsonSchema;
  tags: Array<{ name: string; description: string }>;
  /** What an error status means in this API (the description before the codes). */
  statusText: Record<number, string>;
  /** Response headers an error status carries besides X-Trace-ID. */
  errorHeaders?(status: number): JsonSchema;
  /** `x-…` fields at the document's root. */
  extensions?: JsonSchema;
  /** Header parameters the webhooks share (components.parameters), by name. */
  webhookParameters?: JsonSchema;
}

/** Express `:id` → OpenAPI `{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The Retry-After of a 503 (a write the disk refused), in both documents. */
export const STORE_RETRY_AFTER = {
  description: `Seconds to wait before retrying: ${STORE_RETRY_AFTER_SECONDS} when the disk refused the write (full, read-only); absent on an injected fault unless it sets one`,
  schema: { type: 'integer', minimum: 1 },
};

function errorResponses(op: OperationSpec, frame: DocumentFrame): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of op.errors) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort()) {
    const list = byStatus.get(status)!;
    const headers: JsonSchema = { 'X-Trace-ID': { $ref: '#/components/headers/TraceId' }, ...frame.errorHeaders?.(status) };
    out[String(status)] = {
      description: `${frame.statusText[status] ?? 'Error'}: ${list.join(', ')}`,
      headers,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          examples: Object.fromEntries(list.map((code) => [code, { summary: code, value: { success: false, error: { code, message: op.exampleMessage(code) } } }])),
        },
      },
    };
  }
  return out;
}

function parametersOf(op: OperationSpec, components: SchemaComponents): JsonSchema[] {
  const params: JsonSchema[] = [];
  const fromObject = (schema: JsonSchema, where: 'path' | 'query') => {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = prop;
      params.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  };
  if (op.params) fromObject(components.convertObject(op.params, 'input'), 'path');
  // Path parameters the params schema does not declare are still strings in the path.
  for (const [, name] of op.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (op.query) fromObject(components.convertObject(op.query, 'input'), 'query');
  params.push(...(op.headers ?? []));
  params.push({ $ref: '#/components/parameters/TraceId' });
  return params;
}

function operationOf(op: OperationSpec, frame: DocumentFrame, components: SchemaComponents): Operation {
  const out: Operation = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...op.extensions,
    security: op.security,
    parameters: parametersOf(op, components),
  };
  if (op.body) {
    out.requestBody = {
      // A route whose fields are all optional also takes no body at all.
      required: !op.body.safeParse({}).success,
      content: { 'application/json': { schema: components.convert(op.body, 'input') } },
    };
  }
  out.responses = {
    [String(op.status)]: {
      description: op.status === 201 ? 'Created' : 'OK',
      headers: { 'X-Trace-ID': { $ref: '#/components/headers/TraceId' }, ...op.successHeaders },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data'],
            properties: { success: { const: true }, data: components.convert(op.response, 'output') },
            additionalProperties: false,
          },
        },
      },
    },
    ...errorResponses(op, frame),
  };
  return out;
}

/** A webhook: the POST the API sends, its headers and body, and what the receiver's answers mean. */
function webhookOf(hook: WebhookSpec, components: SchemaComponents): JsonSchema {
  return {
    post: {
      operationId: hook.operationId,
      summary: hook.summary,
      description: hook.description,
      tags: [hook.tag],
      // No API key: the Svc-Signature header is what proves the sender.
      security: [],
      parameters: hook.headers,
      requestBody: { required: true, content: { 'application/json': { schema: components.convert(hook.payload, 'output') } } },
      responses: hook.responses,
    },
  };
}

/** The document: every operation under its path, the shared schemas lifted into components. */
export function buildDocument(operations: OperationSpec[], frame: DocumentFrame, webhooks: WebhookSpec[] = []): JsonSchema {
  const components = new SchemaComponents();
  // The codes this API's operations answer with, in contract/errors.ts's order: the merchant API's
  // list leaves out what only the control API and the pages send (PIN_INVALID, INVALID_STATE…).
  const used = new Set<string>(operations.flatMap((op) => op.errors));
  components.convert(errorEnvelope(Object.keys(ERROR_STATUS).filter((code): code is ErrorCode => used.has(code))), 'output');
  const paths: Record<string, Record<string, Operation>> = {};
  for (const op of operations) (paths[openApiPath(op.path)] ??= {})[op.method] = operationOf(op, frame, components);
  const hooks = Object.fromEntries(webhooks.map((hook) => [hook.name, webhookOf(hook, components)]));
  return {
    openapi: '3.1.0',
    info: frame.info,
    servers: [{ url: frame.serverUrl, description: 'This emulator' }],
    security: frame.security,
    tags: frame.tags,
    ...frame.extensions,
    paths,
    ...(webhooks.length > 0 ? { webhooks: hooks } : {}),
    components: {
      securitySchemes: frame.securitySchemes,
      headers: {
        TraceId: { description: "The request's trace id: the client's `X-Trace-ID` echoed, or a generated `trc_…`", required: true, schema: { type: 'string', minLength: 1 } },
      },
      parameters: {
        TraceId: {
          name: 'X-Trace-ID',
          in: 'header',
          required: false,
          description: TRACE_ID_RULE,
          schema: { type: 'string', minLength: 1, pattern: FIELD_VALUE_PATTERN },
        },
        ...frame.webhookParameters,
      },
      schemas: components.schemas,
    },
  };
}
