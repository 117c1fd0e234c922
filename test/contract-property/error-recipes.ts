import assert from 'node:assert/strict';
import { idem, KEYS, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

// How to make each /v1 operation answer each error code its /openapi.yaml entry lists: the
// recipes of documented-errors.test.ts, and of the coverage test that drives every item of the
// inventory (test/coverage/full.test.ts). `slow` is an emulator started with --latency 1s (on
// its manual clock): a request holds its key until the clock moves (IDEMPOTENCY_IN_FLIGHT).

export interface Op {
  id: string;
  method: string;
  /** The OpenAPI path: /v1/api/payouts/{id} */
  path: string;
  /** The route as faults name it: POST /v1/api/payouts/:id */
  faultRoute: string;
  /** The idempotency header the operation takes, if any. */
  keyHeader?: string;
  keyRequired: boolean;
  /** A body field that is a second idempotency key (redemptions). */
  bodyKey: boolean;
}

/** Every operation of a served /openapi.json, with the error codes (and statuses) its responses list. */
export function operationsOf(doc: any): Array<{ op: Op; codes: Array<{ code: string; status: string }> }> {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, o]) => {
      const keyParam = (o.parameters as any[]).find((p) => /idempotency-key$/i.test(p.name ?? ''));
      const body = o.requestBody?.content['application/json'].schema;
      const bodySchema = body?.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
      const op: Op = {
        id: o.operationId,
        method,
        path,
        faultRoute: `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
        keyHeader: keyParam?.name,
        keyRequired: keyParam?.required === true,
        bodyKey: Boolean(bodySchema?.required?.includes('idempotency_key')),
      };
      const codes = Object.entries(o.responses as Record<string, any>)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, res]) => Object.keys(res.content['application/json'].examples).map((code) => ({ code, status })));
      return { op, codes };
    }),
  );
}

/** The recipe making `op` answer `code` on `emu` (or on `slow`, for IDEMPOTENCY_IN_FLIGHT); undefined when there is none. */
export function errorRecipes(emu: TestEmulator, slow: TestEmulator): (op: Op, code: string) => (() => Promise<ApiResponse>) | undefined {

  const control = (method: string, path: string, body?: unknown, target = emu) => target.request(method, `/_emulator${path}`, { key: null, body });

  /** The operation's path with each parameter filled by an id that names nothing. */
  const absent = (op: Op, suffix = '') => op.path.replace(/\{[^}]+\}/g, `nothing_${suffix || 'here'}`);

  /** A request to `op` with `key`, an idempotency key when the route takes one, and `body`. */
  function call(op: Op, opts: { key?: string | null; body?: unknown; path?: string; idemKey?: string | null; query?: string } = {}, target = emu): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const idemKey = opts.idemKey === undefined ? idem('doc-errors') : opts.idemKey;
    if (op.keyHeader && idemKey !== null) headers[op.keyHeader] = idemKey;
    return target.request(op.method.toUpperCase(), `${opts.path ?? absent(op)}${opts.query ?? ''}`, {
      key: opts.key === undefined ? KEYS.acmeTest : opts.key,
      headers,
      body: op.method === 'get' ? undefined : (opts.body ?? {}),
    });
  }

  /** A body-key route needs its key in the body too. */
  const withBodyKey = (op: Op, body: Record<string, unknown>) => (op.bodyKey ? { idempotency_key: idem('body'), ...body } : body);

  async function withFault(op: Op, status: number): Promise<ApiResponse> {
    const fault = await control('POST', '/faults', { route: op.faultRoute, kind: 'status', status, times: 1, key_name: 'acme-test' });
    assert.equal(fault.status, 201, fault.text);
    return call(op, { body: withBodyKey(op, {}) });
  }

  /** The codes every route may answer, each made to happen on any operation. */
  const GATEWAY: Record<string, (op: Op) => Promise<ApiResponse>> = {
    UNAUTHORIZED: (op) => call(op, { key: null }),
    // The read-only key holds payments:read only; the station key only the two redeem scopes.
    FORBIDDEN: (op) => call(op, { key: op.path.includes('-cards/redeem') ? KEYS.acmeReadOnly : KEYS.acmeStation }),
    BUSINESS_ACCOUNT_REQUIRED: (op) => call(op, { key: KEYS.globexTest }),
    VALIDATION_ERROR: (op) => call(op, { query: '?not_a_parameter=1', body: withBodyKey(op, {}) }),
    NOT_FOUND: (op) => call(op, { body: withBodyKey(op, {}) }),
    RATE_LIMITED: (op) => withFault(op, 429),
    INTERNAL_ERROR: (op) => withFault(op, 500),
    BAD_GATEWAY: (op) => withFault(op, 502),
    SERVICE_UNAVAILABLE: (op) => withFault(op, 503),
    IDEMPOTENCY_KEY_REQUIRED: (op) => (op.keyRequired ? call(op, { idemKey: null }) : call(op, { body: {} })),
    IDEMPOTENCY_KEY_INVALID: (op) => call(op, { idemKey: 'k'.repeat(256), body: withBodyKey(op, {}) }),
    // The same keys (header and body) with two bodies.
    IDEMPOTENCY_CONFLICT: async (op) => {
      const key = idem('conflict');
      const body = (n: number) => ({ ...(op.bodyKey ? { idempotency_key: key } : {}), n });
      await call(op, { idemKey: key, body: body(1) });
      return call(op, { idemKey: key, body: body(2) });
    },
    // On the --latency emulator the first request takes its key, then waits 1 s of a manual clock
    // (whatever its answer will be); the scheduler's new sleeper is the signal that it is in flight.
    IDEMPOTENCY_IN_FLIGHT: async (op) => {
      const pending = async () => (await control('GET', '/clock', undefined, slow)).json.data.pending_timers as number;
      const baseline = await pending();
      const key = idem('in-flight');
      const body = op.bodyKey ? { idempotency_key: key } : {};
      const first = call(op, { idemKey: key, body }, slow);
      while ((await pending()) === baseline) await new Promise((r) => setImmediate(r));
      const duplicate = await call(op, { idemKey: key, body }, slow);
      await control('POST', '/clock/advance', { ms: 1000 }, slow);
      await first;
      return duplicate;
    },
  };

  const clockNow = async () => Date.parse((await control('GET', '/clock')).json.data.now);
  let phoneSeq = 0;
  /** A phone no other recipe uses (OTP state is per phone). */
  const freshPhone = () => `+23177${String(5_000_000 + ++phoneSeq).padStart(7, '0')}`;

  async function link(body: Record<string, unknown>): Promise<string> {
    const res = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('link'), body: { title: 'Errors', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.json.data.id;
  }

  /** Wrong codes until the phone locks (423), with a give-up. */
  async function lockPhone(phone: string): Promise<ApiResponse> {
    await emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } });
    for (let i = 0; i < 20; i++) {
      const res = await emu.request('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'Locked', manager_phone: phone, otp: '000000' } });
      if (res.json?.error?.code === 'OTP_LOCKED') return res;
    }
    throw new Error(`${phone} never locked`);
  }

  /** Route-specific codes: the state that makes each happen. */
  const SPECIFIC: Record<string, () => Promise<ApiResponse>> = {
    'postCharges NOT_FOUND': () => emu.request('POST', '/v1/api/charges', { idempotencyKey: idem('c'), body: { mandate_id: 'mdt_nothing', amount_cents: 100, currency: 'USD', idempotency_key: idem('cycle') } }),
    'postCharges MANDATE_NOT_ACTIVE': async () => {
      const m = await emu.request('POST', '/v1/api/mandates', { idempotencyKey: idem('m'), body: { rail: 'card', customer_ref: 'c', currency: 'USD', max_amount_cents: 1000 } });
      await emu.request('DELETE', `/v1/api/mandates/${m.json.data.mandate.id}`);
      return emu.request('POST', '/v1/api/charges', { idempotencyKey: idem('c'), body: { mandate_id: m.json.data.mandate.id, amount_cents: 100, currency: 'USD', idempotency_key: idem('cycle') } });
    },
    'postFleetCardsRedeem NOT_FOUND': () => redeemFleet('fc_nothing', 'fuel', 100),
    'postFleetCardsRedeem FLEET_CARD_INACTIVE': () => redeemFleet('fc_test_truck_02', 'fuel', 100),
    'postFleetCardsRedeem CATEGORY_NOT_ALLOWED': () => redeemFleet('fc_test_truck_01', 'snacks', 100),
    'postFleetCardsRedeem INSUFFICIENT_BALANCE': () => redeemFleet('fc_test_truck_01', 'fuel', 10_000_000),
    'postFleetCardsRedeem SPEND_LIMIT_EXCEEDED': () => redeemFleet('fc_test_truck_01', 'fuel', 60_000),
    'postGiftCardsRedeem NOT_FOUND': () => emu.request('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_nothing', amount: 100, idempotency_key: idem('g') } }),
    'postGiftCardsRedeem INSUFFICIENT_BALANCE': () => emu.request('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 10_000_000, idempotency_key: idem('g') } }),
    'postPaymentLinksByIdSimulate LINK_CLOSED': async () => {
      const id = await link({ amount: 500 });
      await emu.request('POST', `/v1/api/payment-links/${id}/simulate`, { body: {} });
      return emu.request('POST', `/v1/api/payment-links/${id}/simulate`, { body: {} });
    },
    'postPaymentLinksByIdSimulate LINK_EXPIRED': async () => {
      const id = await link({ amount: 500, expires_at: new Date((await clockNow()) + 60_000).toISOString() });
      await control('POST', '/clock/advance', { ms: 61_000 });
      return emu.request('POST', `/v1/api/payment-links/${id}/simulate`, { body: {} });
    },
    'postPayouts NOT_FOUND': () => emu.request('POST', '/v1/api/payouts', { body: { payee_id: 'payee_nothing', amount_cents: 100, currency: 'USD' } }),
    'postSubMerchantsStart OTP_LOCKED': async () => {
      const phone = freshPhone();
      await lockPhone(phone);
      return emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } });
    },
    'postSubMerchantsComplete OTP_INVALID': async () => {
      const phone = freshPhone();
      await emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } });
      return emu.request('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'Wrong', manager_phone: phone, otp: '000000' } });
    },
    'postSubMerchantsComplete OTP_EXPIRED': async () => {
      const phone = freshPhone();
      const started = await emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } });
      const code = (await control('GET', `/otp/${encodeURIComponent(phone)}`)).json.data.messages[0].code;
      await control('POST', '/clock/advance', { ms: (started.json.data.expires_in_seconds + 1) * 1000 });
      return emu.request('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'Late', manager_phone: phone, otp: code } });
    },
    'postSubMerchantsComplete OTP_LOCKED': () => lockPhone(freshPhone()),
  };

  function redeemFleet(card: string, category: string, amount: number) {
    return emu.request('POST', '/v1/fleet-cards/redeem', { body: { fleet_card_id: card, category, amount_cents: amount, idempotency_key: idem('f') } });
  }

  return (op, code) => SPECIFIC[`${op.id} ${code}`] ?? (GATEWAY[code] && (() => GATEWAY[code](op)));
}
