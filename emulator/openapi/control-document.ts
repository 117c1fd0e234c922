import type { ControlRoute } from '../control/route.js';
import type { ErrorCode } from '../errors.js';
import { CONTROL_COMMON_ERRORS, CONTROL_PREFIX, CONTROL_TAGS } from '../../contract/control/routes.js';
import { CONTROL_TOKEN_HEADER, GUARD_HEADER } from '../../contract/network.js';
import { buildDocument, STORE_RETRY_AFTER, type OperationSpec } from './builder.js';
import type { JsonSchema } from './schemas.js';
import type { DocumentOptions } from './document.js';

// The control API's OpenAPI 3.1 document (GET /_emulator/openapi.yaml), built by the same
// builder as /openapi.yaml from the routes the control router mounts (control/router.ts
// allControlRoutes()) and their contract schemas (contract/control/). What the router and its
// door add to every route — the control token off loopback, the Host/Origin/Authorization
// refusals, 422 for a body that is not JSON or an unknown query parameter — is added here
// once, from the same lists the router acts on.

const STATUS_TEXT: Record<number, string> = {
  401: "The control token is missing or wrong (callers that are not on the emulator's machine need it)",
  403: 'Refused at the door: a Host that does not name the emulator, a foreign Origin, or an Authorization header',
  404: 'No such record (or a path parameter with malformed percent-encoding)',
  409: 'The record is not in a state that allows this',
  429: 'Refused at the door: this address sent 10 wrong control tokens within a minute (see Retry-After)',
  422: 'Well-formed but invalid values (also a body that is not JSON, or an unknown query parameter)',
  423: 'Locked (too many wrong PINs)',
  500: 'Internal error',
  503: 'Temporarily unavailable (the emulator is starting or stopping, or could not keep the change)',
};

/** Example messages; clients switch on `code`, and messages may change between versions. */
const ERROR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: `Refused: callers from other hosts need the control token: send the ${CONTROL_TOKEN_HEADER} header.`,
  RATE_LIMITED: 'Refused: too many wrong control tokens from this address; try again in 42 s.',
  FORBIDDEN: 'The control API is not reachable with an Authorization header (a merchant API key or any other); call it without one.',
  NOT_FOUND: 'No such payee.',
  VALIDATION_ERROR: 'query: unknown parameter "x" (this route takes none)',
  INVALID_STATE: 'This payee was revoked; add it again to start a new approval.',
  PIN_INVALID: 'Wrong PIN; 2 attempts left before PIN entry locks for 15 minutes.',
  PIN_LOCKED: 'Too many wrong PINs; PIN entry is locked until 2026-11-21T12:15:00.000000Z.',
  INTERNAL_ERROR: 'The emulator hit an internal error; see its console.',
  SERVICE_UNAVAILABLE: 'The change was not kept: the disk is full. Nothing was done; retry once the disk accepts writes.',
};

/** Every error code a control route can answer with: the router's and the door's, then its own. */
function controlErrorCodes(route: ControlRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(CONTROL_COMMON_ERRORS);
  if (route.path.includes(':')) codes.add('NOT_FOUND');
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

/** The door's refusals say which check refused them. */
function errorHeaders(status: number): JsonSchema {
  const guard = { description: 'Which check of the door refused the request (host, origin, authorization, token or throttle)', schema: { type: 'string', enum: ['host', 'origin', 'authorization', 'token', 'throttle'] } };
  if (status === 401) return { [GUARD_HEADER]: guard, 'WWW-Authenticate': { description: `Names the ${CONTROL_TOKEN_HEADER} header`, schema: { type: 'string' } } };
  if (status === 403) return { [GUARD_HEADER]: guard };
  if (status === 429) return { [GUARD_HEADER]: guard, 'Retry-After': { description: 'Seconds until the address may present a token again', schema: { type: 'integer', minimum: 1 } } };
  if (status === 503) return { 'Retry-After': STORE_RETRY_AFTER };
  return {};
}

function operationOf(route: ControlRoute): OperationSpec {
  return {
    method: route.method,
    path: CONTROL_PREFIX + route.path,
    operationId: route.name,
    summary: route.summary,
    tag: route.tag,
    security: [{}, { controlToken: [] }],
    body: route.body,
    query: route.query,
    params: route.params,
    response: route.response,
    status: route.status ?? 200,
    errors: controlErrorCodes(route),
    exampleMessage: (code) => ERROR_MESSAGES[code] ?? `${code}: the message says why.`,
  };
}

export function buildControlOpenApi(routes: ControlRoute[], options: DocumentOptions): JsonSchema {
  const used = new Set(routes.map((r) => r.tag));
  return buildDocument(routes.map(operationOf), {
    serverUrl: options.serverUrl,
    statusText: STATUS_TEXT,
    errorHeaders,
    tags: Object.entries(CONTROL_TAGS)
      .filter(([name]) => used.has(name as ControlRoute['tag']))
      .map(([name, description]) => ({ name, description })),
    info: {
      title: 'svc emulator control API',
      version: '1',
      summary: `Every ${CONTROL_PREFIX} route of the svc emulator: the dashboard's and the phone's actions, the clock, the world, fault injection.`,
      description:
        'The emulator\'s own API, used by `svc emulator …`, the testing API and the dashboard; a real service has none. ' +
        'It takes no API key: callers on the emulator\'s machine (loopback) need nothing, callers on other hosts send the control token ' +
        `in the \`${CONTROL_TOKEN_HEADER}\` header (\`--control-token\`, printed in the ready line); 10 wrong tokens from one address within a minute are answered 429 until the minute has passed. A request with an \`Authorization\` header, ` +
        'a `Host` that does not name the emulator or a foreign `Origin` is refused (403, with `Svc-Guard` naming the check). ' +
        'Success bodies are `{ success: true, data }`; failures are `{ success: false, error: { code, message } }` (see ErrorEnvelope). ' +
        'Every response carries `X-Trace-ID`. The merchant API is described at /openapi.yaml.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Loopback callers need no credential ({}); others present the control token.
    security: [{}, { controlToken: [] }],
    securitySchemes: {
      controlToken: {
        type: 'apiKey',
        in: 'header',
        name: CONTROL_TOKEN_HEADER,
        description: "The emulator's control token (--control-token or SVC_CONTROL_TOKEN; made up and printed when it binds a non-loopback address). Required for callers that are not on the emulator's machine.",
      },
    },
  });
}
