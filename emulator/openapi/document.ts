import type { RouteDef } from '../gateway/route.js';
import { HEADER_KEY_RULE, MAX_KEY_LENGTH } from '../../contract/idempotency.js';
import type { ErrorCode } from '../errors.js';
import { FIELD_VALUE_PATTERN } from '../../contract/header-safe.js';
import { routeErrorCodes } from '../../contract/routes.js';
import { buildDocument, openApiPath, STORE_RETRY_AFTER, type OperationSpec } from './builder.js';
import type { JsonSchema } from './schemas.js';
import { SIGNATURE_SCHEME, WEBHOOK_PARAMETERS, WEBHOOK_TAG, webhookSpecs } from './webhooks.js';

// The merchant API's OpenAPI 3.1 document (GET /openapi.yaml), built from the same route
// declarations the gateway mounts (registry.allRoutes()): path, method, scope, summary,
// idempotency policy, zod schemas, success status and route-specific errors. What the gateway
// adds to every route — bearer auth, the scope check, the trace id, the envelopes, idempotency
// and validation errors — is added here once, from the same facts the gateway acts on, so the
// document cannot drift. builder.ts writes it (the control API's document too).

export { openApiPath };

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

/** `post /v1/api/payment-links/:id/simulate` → `postPaymentLinksByIdSimulate`. */
function operationId(route: Pick<RouteDef, 'method' | 'path'>): string {
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
const tagOf = (path: string) => path.split('/').filter((s) => s && s !== 'v1' && s !== 'api')[0];

/** The route's idempotency header as a parameter, if it takes one. */
function idempotencyHeader(route: RouteDef): JsonSchema[] {
  if (!route.idempotency) return [];
  const { header, required, bodyField } = route.idempotency;
  return [
    {
      name: header,
      in: 'header',
      required,
      description:
        `Idempotency key: ${HEADER_KEY_RULE}; compared exactly, valid 24 h from its first use, per merchant. ` +
        (required ? 'Required on this route.' : 'Optional on this route; honoured when sent.') +
        (bodyField ? ` The body field \`${bodyField}\` is a separate, required key (any Unicode string of 1-${MAX_KEY_LENGTH} characters).` : ''),
      // Characters U+0080-U+00FF stand for the bytes 0x80-0xFF (node reads header bytes as latin1).
      schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: FIELD_VALUE_PATTERN },
    },
  ];
}

function operationOf(route: RouteDef): OperationSpec {
  const notes = [`Scope: \`${route.scope}\`.`];
  if (route.business) notes.push('Needs a business account (403 `BUSINESS_ACCOUNT_REQUIRED` otherwise).');
  if (route.idempotency?.bodyField) notes.push(`A retry with the same \`${route.idempotency.bodyField}\` and body returns the original response; another body with the same key is 409 \`IDEMPOTENCY_CONFLICT\`.`);
  return {
    method: route.method,
    path: route.path,
    operationId: operationId(route),
    summary: route.summary,
    description: notes.join('\n\n'),
    tag: tagOf(route.path),
    extensions: { 'x-scopes': [route.scope] },
    security: [{ bearerAuth: [] }],
    body: route.body,
    query: route.query,
    params: route.params,
    response: route.response,
    status: route.status ?? 200,
    errors: routeErrorCodes(route),
    headers: idempotencyHeader(route),
    ...(route.idempotency && {
      successHeaders: { 'Idempotent-Replayed': { description: '`true` when this is a stored response replayed for a repeated idempotency key', schema: { type: 'string', const: 'true' } } },
    }),
    exampleMessage: (code) => exampleMessage(code, route),
  };
}

export interface DocumentOptions {
  serverUrl: string;
}

export function buildOpenApi(routes: RouteDef[], options: DocumentOptions): JsonSchema {
  const tags = [...new Set(routes.map((r) => tagOf(r.path)))].map((name) => ({ name, description: `Routes under ${routes.find((r) => tagOf(r.path) === name)!.path.startsWith('/v1/api/') ? '/v1/api' : '/v1'}/${name}` }));
  tags.push(WEBHOOK_TAG);
  return buildDocument(routes.map(operationOf), {
    serverUrl: options.serverUrl,
    statusText: STATUS_TEXT,
    errorHeaders: (status) => (status === 429 ? { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } } : status === 503 ? { 'Retry-After': STORE_RETRY_AFTER } : {}),
    tags,
    info: {
      title: 'Merchant Payments API (svc emulator)',
      version: '1',
      summary: 'Every /v1 route the svc emulator serves, generated from the zod schemas that validate its requests.',
      description:
        'Authenticate with `Authorization: Bearer <API key>`; the key prefix selects the environment (`svc_test_` or `svc_live_`). ' +
        'Each operation names the scope it needs in its description and in `x-scopes`. Success bodies are `{ success: true, data }`; ' +
        'failures are `{ success: false, error: { code, message } }` (see ErrorEnvelope). Every response carries `X-Trace-ID`. ' +
        'The events the service sends to registered endpoints are under `webhooks`: each body, its headers and how it is signed (`x-webhook-signature`).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    extensions: { 'x-webhook-signature': SIGNATURE_SCHEME },
    webhookParameters: WEBHOOK_PARAMETERS,
    security: [{ bearerAuth: [] }],
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'A merchant API key: `svc_test_…` or `svc_live_…`.' },
    },
  }, webhookSpecs());
}
