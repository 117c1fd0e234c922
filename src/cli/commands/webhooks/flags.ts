import { DEFAULT_TOLERANCE_SECONDS } from '../../../../contract/signature-tolerance.js';
import { API_FLAGS, WRITE_FLAGS, type FlagTable } from '../../flags.js';
import { durationOrMs, intFlag } from '../../parse.js';

const events = { value: '<list>', help: 'only these event types (comma-separated)' } as const;

export const WEBHOOKS = {
  endpointsCreate: {
    ...WRITE_FLAGS,
    url: { value: '<url>', help: 'https:// (or http://localhost with the emulator)', required: true },
    events: { value: '<list>', help: 'comma-separated event types, e.g. payment.completed,payment.failed', required: true },
  },
  endpointsList: API_FLAGS,
  endpointsDelete: WRITE_FLAGS,
  listen: {
    ...API_FLAGS,
    forward: { value: '<url>', help: 'where to POST each event, e.g. http://localhost:3000/webhooks (required unless --print-secret)' },
    events,
    printSecret: { help: "print the profile's listen secret and exit (for WEBHOOK_SECRET=$(svc webhooks listen --print-secret))" },
    port: { value: '<n>', help: 'live host: run a local receiver on this port that verifies Svc-Signature with --secret', parse: intFlag(0, 65535) },
    secret: { value: '<secret>', help: "with --port: the endpoint's signing secret" },
    host: { value: '<addr>', help: 'with --port: address to listen on', default: '127.0.0.1' },
  },
  tail: { ...API_FLAGS, events, attempts: { help: 'also print delivery attempts to registered endpoints' } },
  verify: {
    secret: { value: '<secret>', help: "the endpoint's signing secret", required: true },
    header: { value: '<value>', help: 'the Svc-Signature header, t=…,v1=…', required: true },
    bodyFile: { value: '<path>', help: 'the raw body (default: stdin)' },
    tolerance: { value: '<seconds>', help: 'allowed clock difference, either way', parse: intFlag(0, 10 * 365 * 86_400), default: DEFAULT_TOLERANCE_SECONDS },
    json: { help: 'print the verdict as JSON' },
  },
  replay: {
    ...API_FLAGS,
    forward: { value: '<url>', help: 'send to this URL instead of the original target' },
    emulator: { help: 'ask the emulator to redeliver its delivery (same Svc-Delivery); implied by a dlv_ id' },
  },
  check: {
    ...API_FLAGS,
    timeout: { value: '<duration>', help: 'how long an answer may take (10s, 2s, or ms)', parse: durationOrMs, default: 10_000, shows: '10s' },
    secret: { value: '<secret>', help: "the endpoint's signing secret (what your receiver verifies with)" },
    endpoint: { value: '<endpoint_id>', help: 'read the secret of this emulator endpoint (we_…) instead of --secret' },
    events: { value: '<list>', help: "event types to send, comma-separated (default: every type; with --endpoint, the endpoint's)" },
    strict: { help: 'advice checks fail instead of warning (a warning is a failure)' },
  },
  deliveriesList: { ...API_FLAGS, wide: { help: 'every column (event id, environment, attempts left, next attempt, created); lines are not cut to the terminal' } },
} as const satisfies Record<string, FlagTable>;
