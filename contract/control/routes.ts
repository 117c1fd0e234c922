import type { ErrorCode } from '../errors.js';

// Every route of the emulator's control API (/_emulator), as plain data: method, path under the
// prefix, the tag it is listed under, its success status and the error codes it adds to the
// ones every control route can answer. The emulator binds a handler to each name
// (emulator/control/route.ts defineControl), the client calls them (src/client/control.ts), and
// GET /_emulator/openapi.yaml is generated from them. No zod here, like contract/routes.ts: the
// CLI reads the identity at cold start; the schemas are in schemas.ts,
// under the same names.

/** Where the control API is mounted. Paths below are relative to it. */
export const CONTROL_PREFIX = '/_emulator';

/** What GET /_emulator/health names itself: `svc` refuses emulator-only commands against any host that does not. */
export const EMULATOR_IDENTITY = 'svc-emulator';

type ControlMethod = 'GET' | 'POST' | 'DELETE';

/** The groups the document lists routes under, each with what it holds. */
export const CONTROL_TAGS = {
  emulator: 'The emulator itself: identity, keys, store maintenance, runtime metrics, stop',
  clock: "The emulator's clock: read it, move it forward (everything due runs, each at its own time)",
  world: 'The whole world: reset to the fixtures, snapshots in a body or kept by name',
  faults: 'Fault injection on the merchant API, webhook deliveries and the emulated providers',
  webhooks: 'The outbox and the delivery log: events, deliveries, redelivery, dashboard-side events',
  wallets: "Merchants' wallets and their ledgers",
  payees: 'Payout destinations, approved with the owner PIN (dashboard only)',
  payouts: 'The emulated payout provider',
  cards: 'Gift-card wallets and fleet cards (issued and loaded on the dashboard)',
  users: "Service users (the wallet app's customers) and their wallets",
  approvals: 'What the customer or owner does on a phone or an approval page: mandates, payroll, OTP codes',
  coverage: "Integration coverage: what the merchant's requests and deliveries exercised of the contract",
} as const;
type ControlTag = keyof typeof CONTROL_TAGS;

export interface ControlRouteFacts {
  method: ControlMethod;
  /** Express-style template under CONTROL_PREFIX: /faults/:id */
  path: string;
  summary: string;
  tag: ControlTag;
  /** Status on success: 201 for routes that create something (200 when absent). */
  status?: 200 | 201;
  /** Error codes this route can answer with beyond the ones every control route can. */
  errors?: readonly ErrorCode[];
}

/**
 * What any control route can answer besides its own: the door's refusals (401 without the
 * control token off loopback, 403 for a foreign Host or Origin or an Authorization header,
 * 429 to a peer that sent 10 wrong tokens within a minute),
 * 422 for a body that is not JSON or an unknown query parameter, 503 when the store refused a
 * write, 500. A route with path parameters can also answer 404 (malformed percent-encoding).
 */
export const CONTROL_COMMON_ERRORS: readonly ErrorCode[] = ['UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'VALIDATION_ERROR', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

const PIN_ERRORS = ['PIN_INVALID', 'PIN_LOCKED'] as const;

export const CONTROL_ROUTES = {
  // The emulator itself (emulator/control/routes.ts, metrics.ts, world-routes.ts).
  health: { method: 'GET', path: '/health', tag: 'emulator', summary: 'Liveness, and the identity the CLI checks before an emulator-only action' },
  keys: { method: 'GET', path: '/keys', tag: 'emulator', summary: 'The API keys the emulator knows (seeded from fixtures)' },
  compactStore: { method: 'POST', path: '/store/compact', tag: 'emulator', summary: 'Compact the store now (snapshot + fresh journal segment) and write the request log\'s waiting entries; it also runs by itself' },
  pruneStore: {
    method: 'POST',
    path: '/store/prune',
    tag: 'emulator',
    summary: 'Drop what retention lets go (expired idempotency records, old events, deliveries, OTP messages)',
  },
  metrics: { method: 'GET', path: '/metrics', tag: 'emulator', summary: 'Event-loop delay, GC pauses, CPU time since start or the last reset; memory; store sizes' },
  resetMetrics: { method: 'POST', path: '/metrics/reset', tag: 'emulator', summary: 'Start a new measuring window for the event-loop, GC and CPU figures' },
  fixturesSchema: {
    method: 'GET',
    path: '/fixtures.schema.json',
    tag: 'emulator',
    summary: 'The fixtures file format as a JSON Schema (also shipped as fixtures/fixtures.schema.json)',
  },
  stop: { method: 'POST', path: '/stop', tag: 'emulator', summary: 'Stop the emulator gracefully (requests finish, the store is flushed, the lock released)' },
  clock: { method: 'GET', path: '/clock', tag: 'clock', summary: "The emulator's clock" },
  advanceClock: { method: 'POST', path: '/clock/advance', tag: 'clock', summary: 'Move the clock forward: everything due on the way runs in time order, each at its own time; answers once it has all run (webhook attempts recorded)' },
  advanceToNextDelivery: {
    method: 'POST',
    path: '/clock/advance-to-next-delivery',
    tag: 'clock',
    summary: 'Move the clock to the next due webhook attempt (no move when none waits or one is already due); names the deliveries due then, and answers once they are recorded',
  },
  reset: {
    method: 'POST',
    path: '/reset',
    tag: 'world',
    summary: 'Every record back to the fixtures (same port, same keys); webhook retries and provider timers are dropped with the old records',
  },
  snapshot: { method: 'GET', path: '/snapshot', tag: 'world', summary: 'The whole world (every record) as one JSON document, for POST /_emulator/snapshot/restore' },
  restoreSnapshot: {
    method: 'POST',
    path: '/snapshot/restore',
    tag: 'world',
    summary: 'Replace the whole world with a snapshot from GET /_emulator/snapshot (refused whole if malformed)',
  },
  listSnapshots: { method: 'GET', path: '/snapshots', tag: 'world', summary: 'Snapshots kept under the data dir, newest first (422 on a memory store)' },
  saveSnapshot: {
    method: 'POST',
    path: '/snapshots',
    tag: 'world',
    status: 201,
    summary: 'Save the world under a name (<data dir>/snapshots/<name>.json); an existing name is replaced',
  },
  restoreNamedSnapshot: { method: 'POST', path: '/snapshots/:name/restore', tag: 'world', errors: ['NOT_FOUND'], summary: 'Replace the whole world with a saved snapshot' },

  // Fault injection (emulator/faults/control.ts).
  listFaults: { method: 'GET', path: '/faults', tag: 'faults', summary: 'Faults in force, oldest first (the first that matches fires)' },
  addFault: {
    method: 'POST',
    path: '/faults',
    tag: 'faults',
    status: 201,
    summary: 'Add a fault (API: status, latency, hang, reset, truncate, before or after commit; deliveries: duplicate, drop, delay; provider: down)',
  },
  clearFaults: { method: 'POST', path: '/faults/clear', tag: 'faults', summary: 'Remove every fault' },
  removeFault: { method: 'DELETE', path: '/faults/:id', tag: 'faults', errors: ['NOT_FOUND'], summary: 'Remove one fault' },
  faultLog: { method: 'GET', path: '/faults/log', tag: 'faults', summary: 'Faults that fired, oldest first (the last 500)' },
  // Integration coverage (emulator/coverage.ts).
  coverage: {
    method: 'GET',
    path: '/coverage',
    tag: 'coverage',
    summary: 'Every route, error code, event, delivery outcome and flow of the contract, with how often it was answered or delivered since the count began, and how to exercise it',
  },
  resetCoverage: { method: 'POST', path: '/coverage/reset', tag: 'coverage', summary: 'Start a new count (a reset, a restore or a restart keeps counting)' },
  // The request log (emulator/request-log/): every /v1 request, redacted.
  listRequests: { method: 'GET', path: '/requests', tag: 'emulator', summary: 'The request log: every /v1 request, newest first, bodies redacted (filter by method, path prefix, status, environment, key, since, trace_id)' },
  request: { method: 'GET', path: '/requests/:id', tag: 'emulator', summary: 'One entry of the request log', errors: ['NOT_FOUND'] },
  faultPresets: { method: 'GET', path: '/faults/presets', tag: 'faults', summary: 'Named fault sets' },
  applyFaultPreset: { method: 'POST', path: '/faults/presets/:name/apply', tag: 'faults', status: 201, errors: ['NOT_FOUND'], summary: 'Add every fault of a preset' },

  // The outbox and deliveries (emulator/webhooks/control.ts, resources/events/control.ts).
  endpointDeliveries: {
    method: 'GET',
    path: '/webhook-endpoints/:id/deliveries',
    tag: 'webhooks',
    errors: ['NOT_FOUND'],
    summary: "An endpoint's deliveries, newest first (?limit=, default 50, max 500); each with its last attempt",
  },
  endpointSecret: {
    method: 'GET',
    path: '/webhook-endpoints/:id/secret',
    tag: 'webhooks',
    errors: ['NOT_FOUND'],
    summary: "An endpoint's signing secret, for `svc webhooks check --endpoint` (the merchant API shows it once, at creation); 404 for an unknown or deleted endpoint",
  },
  delivery: {
    method: 'GET',
    path: '/deliveries/:id',
    tag: 'webhooks',
    errors: ['NOT_FOUND'],
    summary: 'One delivery with every attempt (time, status code, latency, error, first 1 KB of the response)',
  },
  redeliver: {
    method: 'POST',
    path: '/deliveries/:id/redeliver',
    tag: 'webhooks',
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    summary: 'Put one failed or dead_letter delivery back to pending, same id (409 INVALID_STATE otherwise)',
  },
  listEvents: { method: 'GET', path: '/events', tag: 'webhooks', summary: 'Events in the outbox, oldest first (filter by merchant_id, environment, type)' },
  eventDeliveries: {
    method: 'GET',
    path: '/events/:id/deliveries',
    tag: 'webhooks',
    errors: ['NOT_FOUND'],
    summary: 'The deliveries an event fanned out to, one per subscribed endpoint',
  },
  triggerEvent: {
    method: 'POST',
    path: '/events/trigger',
    tag: 'webhooks',
    status: 201,
    errors: ['NOT_FOUND'],
    summary:
      'Emit catalog.published or inventory.low_stock for a merchant (the dashboard side nothing in the API causes) through the outbox: signed deliveries on the usual schedule',
  },

  // Dashboard actions of the resources (emulator/resources/*/control.ts).
  wallets: { method: 'GET', path: '/wallets', tag: 'wallets', errors: ['NOT_FOUND'], summary: "A merchant's wallets with their newest ledger entries (?merchant_id=&environment=&entries=20)" },
  topUpWallet: { method: 'POST', path: '/wallets/top-up', tag: 'wallets', errors: ['NOT_FOUND'], summary: "Add money to a merchant's wallet (a top_up ledger entry)" },
  listPayees: { method: 'GET', path: '/payees', tag: 'payees', errors: ['NOT_FOUND'], summary: "A merchant's payees (?merchant_id=&environment=)" },
  addPayee: {
    method: 'POST',
    path: '/payees',
    tag: 'payees',
    status: 201,
    errors: ['NOT_FOUND'],
    summary: 'Add a payee; it waits in pending_approval until the owner approves it',
  },
  approvePayee: { method: 'POST', path: '/payees/:id/approve', tag: 'payees', errors: ['NOT_FOUND', 'INVALID_STATE', ...PIN_ERRORS], summary: "Approve a payee with the owner's PIN" },
  revokePayee: { method: 'POST', path: '/payees/:id/revoke', tag: 'payees', errors: ['NOT_FOUND'], summary: 'Revoke a payee; later payouts to it are refused' },
  setPayeeCaps: {
    method: 'POST',
    path: '/payees/:id/caps',
    tag: 'payees',
    errors: ['NOT_FOUND', 'INVALID_STATE', ...PIN_ERRORS],
    summary: "Set a payee's caps; raising one needs the owner's PIN",
  },
  payoutProvider: { method: 'GET', path: '/payouts/provider', tag: 'payouts', summary: 'The payout provider: delay, default outcome and queued outcomes' },
  queuePayoutOutcomes: {
    method: 'POST',
    path: '/payouts/provider/outcomes',
    tag: 'payouts',
    summary: 'Replace the queue of outcomes for the next payouts accepted (any merchant, any environment)',
  },
  listGiftCardWallets: { method: 'GET', path: '/gift-card-wallets', tag: 'cards', errors: ['NOT_FOUND'], summary: "A merchant's gift-card wallets (?merchant_id=&environment=)" },
  giftCardWalletTransactions: {
    method: 'GET',
    path: '/gift-card-wallets/:id/transactions',
    tag: 'cards',
    errors: ['NOT_FOUND'],
    summary: 'A gift-card wallet with its transactions (issue, load, redemption; signed amounts that sum to the balance)',
  },
  issueGiftCardWallet: {
    method: 'POST',
    path: '/gift-card-wallets',
    tag: 'cards',
    status: 201,
    errors: ['NOT_FOUND'],
    summary: 'Issue a gift-card wallet (a customer pocket at a merchant) with an opening balance',
  },
  loadGiftCardWallet: { method: 'POST', path: '/gift-card-wallets/:id/load', tag: 'cards', errors: ['NOT_FOUND'], summary: 'Load money onto a gift-card wallet' },
  listFleetCards: { method: 'GET', path: '/fleet-cards', tag: 'cards', errors: ['NOT_FOUND'], summary: "A merchant's fleet cards (?merchant_id=&environment=)" },
  fleetCardTransactions: {
    method: 'GET',
    path: '/fleet-cards/:id/transactions',
    tag: 'cards',
    errors: ['NOT_FOUND'],
    summary: 'A fleet card with its transactions (issue, top_up, redemption; signed amounts that sum to the balance)',
  },
  issueFleetCard: { method: 'POST', path: '/fleet-cards', tag: 'cards', status: 201, errors: ['NOT_FOUND'], summary: 'Issue a fleet card (active unless told otherwise)' },
  setFleetCardStatus: { method: 'POST', path: '/fleet-cards/:id/status', tag: 'cards', errors: ['NOT_FOUND'], summary: 'Activate or deactivate a fleet card' },
  topUpFleetCard: { method: 'POST', path: '/fleet-cards/:id/top-up', tag: 'cards', errors: ['NOT_FOUND'], summary: 'Add money to a fleet card' },
  listUsers: { method: 'GET', path: '/users', tag: 'users', summary: 'Service users with their per-environment wallet balances' },
  user: { method: 'GET', path: '/users/:phone', tag: 'users', errors: ['NOT_FOUND'], summary: 'One service user by phone, with wallet balances and ledger entries' },
  topUpUser: {
    method: 'POST',
    path: '/users/:phone/top-up',
    tag: 'users',
    errors: ['NOT_FOUND'],
    summary: "Add money to a service user's wallet (a cash-in at an agent, in the real app)",
  },
  approveCardMandate: {
    method: 'POST',
    path: '/mandates/:id/approve-card',
    tag: 'approvals',
    errors: ['NOT_FOUND', 'INVALID_STATE'],
    summary: 'Save a card on a card mandate and activate it (the card approval page)',
  },
  approveWalletMandate: {
    method: 'POST',
    path: '/mandates/:id/approve-wallet',
    tag: 'approvals',
    errors: ['NOT_FOUND', 'INVALID_STATE', ...PIN_ERRORS],
    summary: "Approve a wallet mandate with the customer's phone and PIN (the wallet app)",
  },
  approvePayrollRun: {
    method: 'POST',
    path: '/payroll-runs/:id/approve',
    tag: 'approvals',
    errors: ['NOT_FOUND', 'INVALID_STATE', ...PIN_ERRORS],
    summary: "Approve a payroll run with the business owner's PIN; it executes at once",
  },
  otpInbox: { method: 'GET', path: '/otp/:phone', tag: 'approvals', summary: 'OTP messages sent to a phone, newest first' },
} as const satisfies Record<string, ControlRouteFacts>;

export type ControlRouteName = keyof typeof CONTROL_ROUTES;
