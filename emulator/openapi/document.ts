import type { RouteDef } from '../gateway/route.js';
import { MAX_KEY_LENGTH } from '../../contract/idempotency.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { ErrorEnvelope } from '../../contract/common.js';
import { HEADER_SAFE_PATTERN, MAX_TRACE_ID_LENGTH } from '../../contract/header-safe.js';
import { SchemaComponents, type JsonSchema } from './schemas.js';

// The OpenAPI 3.1 document, built from the same route declarations the gateway mounts
// (registry.allRoutes()): path, method, scope, summary, idempotency policy, zod schemas,
// success status and route-specific errors. What the gateway adds to every route — bearer
// auth, the scope check, the trace id, the envelopes, idempotency and validation errors — is
// added here once, from the same facts the gateway acts on, so the document cannot drift.

type Operation = JsonSchema;

const STATUS_TEXT: Record<number, string> = {
  401: 'Missing, malformed or revoked API key',
  403: 'The key lacks the scope, or the account is not a business account',
  404: 'Absent, or owned by another merchant or environment',
  409: 'Idempotency key reused with another body, or still in flight',
  422: 'Well-formed but invalid values',
  423: 'Locked',
  429: 'Rate limited (see Retry-After)',
  500: 'Internal error',
  503: 'Temporarily unavailable (the emulator is stopping, or could not keep the change)',
};

/** Example messages; clients switch on `code`, and messages may change between versions. */
const ERROR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: 'Unknown API key.',
  BUSINESS_ACCOUNT_REQUIRED: 'This action needs a business account.',
  NOT_FOUND: 'No such resource.',
  VALIDATION_ERROR: 'amount: Invalid input: expected int, received number',
  IDEMPOTENCY_KEY_REQUIRED: 'This route requires an idempotency key.',
  IDEMPOTENCY_KEY_INVALID: 'X-Idempotency-Key is 256 characters long, 1 over the 255-character limit; it must be 1 to 255 printable ASCII characters, inner spaces allowed; a UUID works.',
  IDEMPOTENCY_CONFLICT: 'This idempotency key was already used with a different request body (or route, or environment).',
  IDEMPOTENCY_IN_FLIGHT: 'A request with this idempotency key is still being processed; retry shortly.',
  RATE_LIMITED: 'Too many requests; retry after 1 s.',
  INTERNAL_ERROR: 'The emulator hit an internal error; see its console.',
  SERVICE_UNAVAILABLE: 'The change could not be kept; nothing was done. Retry shortly.',
  OTP_LOCKED: 'Too many wrong codes for this phone; it is locked until 2026-11-21T12:15:00.000000Z.',
};

const exampleMessage = (code: ErrorCode, route: RouteDef) =>
  code === 'FORBIDDEN' ? `This API key lacks the ${route.scope} scope.` : (ERROR_MESSAGES[code] ?? `${code}: the message says why.`);

/** Express `:id` → OpenAPI `{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** `post /v1/api/payment-links/:id/simulate` → `postPaymentLinksByIdSimulate`. */
export function operationId(route: Pick<RouteDef, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter((s) => s && s !== 'v1' && s !== 'api')
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .join('-')
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return route.method + words.join('');
}

/** The resource a route belongs to: the first path segment after /v1/api or /v1. */
export const tagOf = (path: string) => path.split('/').filter((s) => s && s !== 'v1' && s !== 'api')[0];

/**
 * Which error codes a route can answer with: the gateway's, from its declaration, plus its own.
 * Every route can answer 422 VALIDATION_ERROR: a body that is not JSON and an unknown query
 * parameter are refused before any handler runs. 503 is the spec's "temporarily unavailable";
 * 502 is the gateway error the spec tells clients to retry, which fault injection can answer on
 * any route (faults/api.ts).
 */
export function errorCodesOf(route: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>(['UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'VALIDATION_ERROR', 'INTERNAL_ERROR', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE']);
  if (route.business) codes.add('BUSINESS_ACCOUNT_REQUIRED');
  if (route.path.includes(':')) codes.add('NOT_FOUND');
  if (route.idempotency) {
    codes.add('IDEMPOTENCY_KEY_INVALID').add('IDEMPOTENCY_CONFLICT').add('IDEMPOTENCY_IN_FLIGHT');
    if (route.idempotency.required || route.idempotency.bodyField) codes.add('IDEMPOTENCY_KEY_REQUIRED');
  }
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

function errorResponses(route: RouteDef, codes: ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort()) {
    const list = byStatus.get(status)!;
    const headers: JsonSchema = { 'X-Trace-ID': { $ref: '#/components/headers/TraceId' } };
    if (status === 429) headers['Retry-After'] = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.join(', ')}`,
      headers,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          examples: Object.fromEntries(
            list.map((code) => [code, { summary: code, value: { success: false, error: { code, message: exampleMessage(code, route) } } }]),
          ),
        },
      },
    };
  }
  return out;
}

function parametersOf(route: RouteDef, components: SchemaComponents): JsonSchema[] {
  const params: JsonSchema[] = [];
  const fromObject = (schema: JsonSchema, where: 'path' | 'query') => {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = prop;
      params.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  };
  if (route.params) fromObject(components.convertObject(route.params, 'input'), 'path');
  // Path parameters the params schema does not declare are still strings in the path.
  for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (route.query) fromObject(components.convertObject(route.query, 'input'), 'query');
  if (route.idempotency) {
    const { header, required, bodyField } = route.idempotency;
    params.push({
      name: header,
      in: 'header',
      required,
      description:
        `Idempotency key (any UUID, or 1-${MAX_KEY_LENGTH} printable ASCII characters; inner spaces allowed, none at either end), valid 24 h per merchant. ` +
        (required ? 'Required on this route.' : 'Optional on this route; honoured when sent.') +
        (bodyField ? ` The body field \`${bodyField}\` is a separate, required key with the same rules.` : ''),
      schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: HEADER_SAFE_PATTERN },
    });
  }
  params.push({ $ref: '#/components/parameters/TraceId' });
  return params;
}

function operationOf(route: RouteDef, components: SchemaComponents): Operation {
  const status = route.status ?? 200;
  const notes = [`Scope: \`${route.scope}\`.`];
  if (route.business) notes.push('Needs a business account (403 `BUSINESS_ACCOUNT_REQUIRED` otherwise).');
  if (route.idempotency?.bodyField) notes.push(`A retry with the same \`${route.idempotency.bodyField}\` and body returns the original response; another body with the same key is 409 \`IDEMPOTENCY_CONFLICT\`.`);
  const successHeaders: JsonSchema = { 'X-Trace-ID': { $ref: '#/components/headers/TraceId' } };
  if (route.idempotency) successHeaders['Idempotent-Replayed'] = { description: '`true` when this is a stored response replayed for a repeated idempotency key', schema: { type: 'string', const: 'true' } };
  const op: Operation = {
    operationId: operationId(route),
    summary: route.summary,
    description: notes.join('\n\n'),
    tags: [tagOf(route.path)],
    'x-scopes': [route.scope],
    security: [{ bearerAuth: [] }],
    parameters: parametersOf(route, components),
  };
  if (route.body) {
    op.requestBody = {
      // A route whose fields are all optional also takes no body at all.
      required: !route.body.safeParse({}).success,
      content: { 'application/json': { schema: components.convert(route.body, 'input') } },
    };
  }
  op.responses = {
    [String(status)]: {
      description: status === 201 ? 'Created' : 'OK',
      headers: successHeaders,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data'],
            properties: { success: { const: true }, data: components.convert(route.response, 'output') },
            additionalProperties: false,
          },
        },
      },
    },
    ...errorResponses(route, errorCodesOf(route)),
  };
  return op;
}

export interface DocumentOptions {
  serverUrl: string;
}

export function buildOpenApi(routes: RouteDef[], options: DocumentOptions): JsonSchema {
  const components = new SchemaComponents();
  components.convert(ErrorEnvelope, 'output');
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method] = operationOf(route, components);
  }
  const tags = [...new Set(routes.map((r) => tagOf(r.path)))].map((name) => ({ name, description: `Routes under ${routes.find((r) => tagOf(r.path) === name)!.path.startsWith('/v1/api/') ? '/v1/api' : '/v1'}/${name}` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant Payments API (svc emulator)',
      version: '1',
      summary: 'Every /v1 route the svc emulator serves, generated from the zod schemas that validate its requests.',
      description:
        'Authenticate with `Authorization: Bearer <API key>`; the key prefix selects the environment (`svc_test_` or `svc_live_`). ' +
        'Each operation names the scope it needs in its description and in `x-scopes`. Success bodies are `{ success: true, data }`; ' +
        'failures are `{ success: false, error: { code, message } }` (see ErrorEnvelope). Every response carries `X-Trace-ID`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl, description: 'This emulator' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A merchant API key: `svc_test_…` or `svc_live_…`.' },
      },
      headers: {
        TraceId: { description: "The request's trace id: the client's `X-Trace-ID` echoed, or a generated `trc_…`", required: true, schema: { type: 'string', minLength: 1 } },
      },
      parameters: {
        TraceId: {
          name: 'X-Trace-ID',
          in: 'header',
          required: false,
          description: `Echoed back when header-safe: 1-${MAX_TRACE_ID_LENGTH} printable ASCII characters, inner spaces allowed; otherwise one is generated (trc_ + 24 hex)`,
          schema: { type: 'string', minLength: 1, maxLength: MAX_TRACE_ID_LENGTH, pattern: HEADER_SAFE_PATTERN },
        },
      },
      schemas: components.schemas,
    },
  };
}
