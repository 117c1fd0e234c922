import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { EVENT_SUMMARIES } from './events.js';
import { ROUTES, routeErrorCodes, type RouteFacts } from './routes.js';

// Integration coverage (docs/coverage.md): every item of the contract a merchant's suite can
// exercise, and how. The inventory is read from the contract: the route table, the error codes
// each route can answer (routeErrorCodes: the gateway's, from the route's facts, plus its own)
// and the event list, so a route added there is an item here with no other change. Only the
// delivery outcomes and the spec's flows are listed here: no other table holds them.

export const COVERAGE_KINDS = ['route', 'error', 'event', 'delivery', 'flow'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

/** A state change the emulator reports as it happens (emulator/coverage.ts). */
export type CoverageSignal = 'first' | 'after5xx' | 'afterTimeout' | 'deadLetter' | 'redelivered' | 'duplicate' | 'linkCompleted' | 'linkFailed'
  | 'chargeCompleted' | 'chargeFailed' | 'pinApproved' | 'pinRejected' | 'payoutReversed';

/** A merchant API answer that marks a flow: of one route (any, when absent), with this status or code. */
export interface AnswerMatch {
  /** A route's name in the table. */
  route?: string;
  status?: number;
  code?: ErrorCode;
  /** The error message holds this. */
  message?: string;
  /** The request carried this query parameter (not empty, not 0): a page after the first. */
  query?: string;
  /** A stored answer, replayed for a repeated idempotency key. */
  replayed?: true;
}

export interface InventoryItem {
  kind: CoverageKind;
  /** The route template with its status (and error code), the event type, the outcome or the flow. */
  name: string;
  /** One line on how to exercise it from a test. */
  how: string;
  /** Orders what is uncovered: the paths that fail in production first. */
  weight: number;
  /** Route and error items: the route's name, the status and the code it answered. */
  route?: string;
  status?: number;
  code?: ErrorCode;
  /** Delivery and flow items: what marks them. */
  signal?: CoverageSignal;
  answers?: AnswerMatch[];
}

type Listed = Pick<InventoryItem, 'name' | 'how' | 'weight' | 'signal' | 'answers'>;

const NEXT = 'then advance to it (svc emulator clock advance --to-next-delivery)';

const DELIVERIES: Listed[] = [
  { name: 'delivered first time', signal: 'first', weight: 25, how: `register an endpoint (POST /v1/api/webhook-endpoints) whose receiver answers 2xx, cause its event, ${NEXT}` },
  { name: 'retried after a 5xx', signal: 'after5xx', weight: 30, how: `answer 500 to an attempt, ${NEXT}: the retry is due 5 s later` },
  { name: 'retried after a timeout', signal: 'afterTimeout', weight: 25, how: `answer an attempt later than --webhook-timeout (10 s), ${NEXT}` },
  { name: 'dead_letter', signal: 'deadLetter', weight: 30, how: 'answer non-2xx to all 7 attempts: svc emulator clock advance 10h' },
  { name: 'redelivered', signal: 'redelivered', weight: 20, how: 'redeliver a failed or dead_letter delivery: svc webhooks replay dlv_… (POST /_emulator/deliveries/:id/redeliver)' },
  { name: 'duplicate answered 2xx', signal: 'duplicate', weight: 30, how: 'svc emulator faults add --deliveries --duplicate: each attempt comes twice with one Svc-Delivery; answer 2xx to both' },
];

const FLOWS: Listed[] = [
  { name: 'idempotency conflict', answers: [{ code: 'IDEMPOTENCY_CONFLICT' }], weight: 30, how: 'send one idempotency key twice with two bodies: 409 IDEMPOTENCY_CONFLICT' },
  { name: 'idempotent replay', answers: [{ replayed: true }], weight: 25, how: 'send a request again with its idempotency key and body: the stored answer, Idempotent-Replayed: true' },
  { name: 'link paid', signal: 'linkCompleted', weight: 20, how: 'svc links simulate <id> (POST /v1/api/payment-links/:id/simulate {"outcome":"completed"}), or pay on the checkout page' },
  { name: 'link payment failed', signal: 'linkFailed', weight: 30, how: 'POST /v1/api/payment-links/:id/simulate {"outcome":"failed"}' },
  { name: 'link expired', answers: [{ route: 'simulateLink', code: 'LINK_EXPIRED' }], weight: 25, how: 'create a link with expires_at, svc emulator clock advance past it, then simulate' },
  { name: 'mandate charged', signal: 'chargeCompleted', weight: 20, how: 'POST /v1/api/charges on an active mandate' },
  { name: 'mandate charge declined', signal: 'chargeFailed', weight: 30, how: 'charge a card mandate saved with the declining card 4000000000000002 (or send "outcome":"failed" with a test key)' },
  { name: 'mandate revoked then charged', answers: [{ route: 'createCharge', code: 'MANDATE_NOT_ACTIVE', message: 'revoked' }], weight: 25, how: 'DELETE /v1/api/mandates/:id, then POST /v1/api/charges on it: 422 MANDATE_NOT_ACTIVE' },
  { name: 'OTP verified', answers: [{ route: 'completeSubMerchant', status: 201 }], weight: 20, how: 'start, read the code (svc emulator otp <phone>), complete' },
  { name: 'OTP locked out', answers: [{ code: 'OTP_LOCKED' }], weight: 30, how: 'complete with a wrong code 5 times: 423 OTP_LOCKED' },
  { name: 'PIN approved', signal: 'pinApproved', weight: 20, how: 'approve a payroll run (svc payroll approve) or a wallet mandate with the right PIN' },
  { name: 'PIN rejected', signal: 'pinRejected', weight: 25, how: 'approve a payroll run or a wallet mandate with a wrong PIN' },
  { name: 'payout within the cap', answers: [{ route: 'createPayout', status: 201 }], weight: 20, how: "POST /v1/api/payouts to an approved payee, within its caps" },
  { name: 'payout over the cap', answers: [{ route: 'createPayout', code: 'VALIDATION_ERROR', message: 'cap' }], weight: 30, how: "POST /v1/api/payouts over the payee's per_payout_cap or daily_cap: 422" },
  { name: 'payout failed and reversed', signal: 'payoutReversed', weight: 25, how: 'svc emulator payout-provider queue failed, create a payout, svc emulator clock advance 2s' },
  { name: 'second page of a list', answers: [{ route: 'listPayments', status: 200, query: 'before' }, { route: 'listPayouts', status: 200, query: 'offset' }], weight: 30, how: 'list payments, then again with before=<next_before> (payouts: offset)' },
];

const fault = (status: number) => (r: RouteFacts) => `svc emulator faults add --route "${r.method} ${r.path}" --status ${status} --times 1, then call it`;
const once = (how: string) => () => how;

/** Each error code: how much its absence matters, and how a test makes a route answer it. */
const ERRORS: Record<ErrorCode, [number, (r: RouteFacts) => string]> = {
  UNAUTHORIZED: [5, once('call it without Authorization, or with a revoked key')],
  FORBIDDEN: [5, (r) => `call it with a key that lacks ${r.scope} (svc emulator keys lists their scopes)`],
  BUSINESS_ACCOUNT_REQUIRED: [5, once("call it with a key of a merchant that is not a business (the fixtures' globex)")],
  NOT_FOUND: [8, once('name an id that does not exist, or belongs to another merchant')],
  VALIDATION_ERROR: [8, once('send a field its schema refuses, or an unknown query parameter')],
  IDEMPOTENCY_KEY_REQUIRED: [8, once('send it without its idempotency key')],
  IDEMPOTENCY_KEY_INVALID: [5, once('send an idempotency key of 256 characters')],
  IDEMPOTENCY_CONFLICT: [15, once('send its idempotency key again with another body')],
  IDEMPOTENCY_IN_FLIGHT: [15, once('send its key again while the first request is held (svc emulator exec --latency 1000 --clock manual)')],
  RATE_LIMITED: [20, fault(429)],
  INTERNAL_ERROR: [12, fault(500)],
  BAD_GATEWAY: [15, fault(502)],
  SERVICE_UNAVAILABLE: [15, fault(503)],
  FLEET_CARD_INACTIVE: [18, once('redeem on a deactivated card (svc emulator fleet-cards status <id> inactive)')],
  CATEGORY_NOT_ALLOWED: [18, once('redeem with a category the card does not allow')],
  INSUFFICIENT_BALANCE: [18, once('redeem more than the card holds')],
  SPEND_LIMIT_EXCEEDED: [18, once("redeem over the card's spend limit for its period")],
  LINK_EXPIRED: [18, once('create a link with expires_at, svc emulator clock advance past it, then simulate')],
  LINK_CLOSED: [18, once('simulate twice on a link with a fixed amount')],
  MANDATE_NOT_ACTIVE: [18, once('revoke the mandate (or leave a wallet mandate unapproved), then charge it')],
  OTP_INVALID: [18, once('complete with a wrong code')],
  OTP_EXPIRED: [18, once('svc emulator clock advance past expires_in_seconds, then complete')],
  OTP_LOCKED: [18, once('complete with a wrong code 5 times')],
  // Control API codes: no merchant route lists them.
  PIN_INVALID: [18, once('approve with a wrong PIN')],
  PIN_LOCKED: [18, once('approve with a wrong PIN 5 times')],
  INVALID_STATE: [18, once('act on something in the wrong state')],
};

/** What the inventory is read from; the default is the contract itself (a test adds a route). */
export interface CoverageContract {
  routes: Readonly<Record<string, RouteFacts>>;
  /** Event type → when it is sent. */
  events: Readonly<Record<string, string>>;
  deliveries: readonly Listed[];
  flows: readonly Listed[];
}

export const CONTRACT: CoverageContract = { routes: ROUTES, events: EVENT_SUMMARIES, deliveries: DELIVERIES, flows: FLOWS };

/** Every item, in the contract's order: each route with its success status, then its error codes; events; deliveries; flows. */
export function buildInventory(contract: CoverageContract = CONTRACT): InventoryItem[] {
  const items: InventoryItem[] = [];
  for (const [route, r] of Object.entries(contract.routes)) {
    const at = `${r.method} ${r.path}`;
    const status = r.status ?? 200;
    items.push({ kind: 'route', name: `${at} ${status}`, route, status, weight: r.method === 'GET' ? 10 : 15, how: `${r.summary}: ${at} with a key that has ${r.scope}` });
    for (const code of routeErrorCodes(r)) {
      const [weight, how] = ERRORS[code];
      items.push({ kind: 'error', name: `${at} ${ERROR_STATUS[code]} ${code}`, route, status: ERROR_STATUS[code], code, weight, how: how(r) });
    }
  }
  for (const [type, when] of Object.entries(contract.events)) {
    items.push({ kind: 'event', name: type, weight: 20, how: `subscribe an endpoint to ${type} and answer 2xx; sent when: ${when}` });
  }
  for (const d of contract.deliveries) items.push({ kind: 'delivery', ...d });
  for (const f of contract.flows) items.push({ kind: 'flow', ...f });
  return items;
}
