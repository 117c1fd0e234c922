import { HttpClient, type ApiResult, type ClientOptions } from './http.js';
import type { Json } from './api.js';
import { NOT_AN_EMULATOR, SvcError } from './error.js';
import { CONTROL_TOKEN_HEADER } from '../../contract/network.js';
import type { Payee } from '../../contract/resources/payees.js';

export type { Payee };

// The emulator's control API (loopback only, no Authorization header): what the spec puts on
// the dashboard or a phone — clock, keys, OTP inbox, approvals, payees, wallets, deliveries.

export interface EmulatorKey {
  name: string;
  key: string;
  environment: 'test' | 'live';
  scopes: string[];
  merchant_id: string;
  revoked: boolean;
}

export interface ClockState {
  mode: string;
  now: string;
  pending_timers: number;
}

export interface NextDeliveryAdvance {
  advanced_ms: number;
  due_at: string | null;
  deliveries: string[];
  clock: ClockState;
}

export interface WalletView {
  merchant_id: string;
  wallets: {
    id: string;
    environment: string;
    currency: string;
    balance: number;
    entry_count: number;
    entries: { id: string; amount: number; reason: string; ref: string | null; created_at: string }[];
  }[];
}

export interface MandateView {
  id: string;
  status: string;
  currency: string;
  max_amount_cents: number;
  card?: { brand: string; last4: string } | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  environment: string;
  status: string;
  attempt_count: number;
  attempts_left: number;
  next_attempt_at: string | null;
  last_attempt: { status_code: number | null; error: string | null; latency_ms: number | null } | null;
  created_at: string;
  updated_at: string;
}

export interface ControlEvent {
  id: string;
  type: string;
  environment: string;
  created_at: string;
  body: string;
}

export interface ControlUser {
  id: string;
  name: string;
  phone: string;
  business: boolean;
  wallets: Partial<Record<'test' | 'live', Partial<Record<string, number>>>>;
}

/** Which merchant's records, in which environment (both from the key in use when the CLI omits them). */
export type MerchantQuery = {
  merchant_id: string;
  environment?: 'test' | 'live';
};

export interface NewPayee {
  merchant_id: string;
  environment: 'test' | 'live';
  name: string;
  currency: string;
  per_payout_cap: number;
  daily_cap: number;
}

export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** The name GET /_emulator/health answers with (emulator/control/routes.ts EMULATOR_IDENTITY). */
const EMULATOR_IDENTITY = 'svc-emulator';

export interface ControlOptions extends Omit<ClientOptions, 'apiKey' | 'headers'> {
  /** The emulator's control token (--control-token): offered only when its door asks for it. */
  controlToken?: string;
}

/**
 * The emulator's door said no (`err.guard` set): its own reason, and what to change (never
 * "not an emulator"). Shared with `svc emulator status --wait`, which probes without this class.
 */
export function guardRefusal(baseUrl: string, err: SvcError, tokenSent: boolean): SvcError {
  const fix =
    err.guard === 'token'
      ? tokenSent
        ? ' The control token sent (--control-token, SVC_CONTROL_TOKEN or .svc/emulator.json) is not this emulator\'s: use the one its ready line printed (control_token) or the one it was started with.'
        : ' Pass --control-token <token> or set SVC_CONTROL_TOKEN: the emulator printed it in its ready line (control_token) and keeps it in <data dir>/emulator.json.'
      : ''; // a Host refusal names its own fix (--allow-host)
  return new SvcError(err.code, err.status, `the emulator at ${baseUrl} refused the request: ${err.message}${fix}`, err.trace_id, err.guard);
}

export class ControlApi {
  /** Without the token until the emulator's door asks for it (identify()), then with it. */
  http: HttpClient;
  readonly baseUrl: string;
  private identified: Promise<void> | undefined;
  constructor(private readonly options: ControlOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.http = new HttpClient({ ...options, baseUrl: `${this.baseUrl}/_emulator` });
  }

  /**
   * Proves the host is an svc emulator before any control call goes out: one GET of
   * /_emulator/health, without credentials, whose answer must name the emulator. A live host
   * (or anything else) is refused here, so a PIN or an emulator-only action never reaches it.
   */
  identify(): Promise<void> {
    this.identified ??= this.health0().then(
      (r) => {
        if (r.data?.service !== EMULATOR_IDENTITY) throw this.notEmulator('its /_emulator/health does not name an svc emulator');
      },
      (err: unknown) => {
        if (err instanceof SvcError && err.guard) throw guardRefusal(this.baseUrl, err, this.options.controlToken !== undefined);
        if (err instanceof SvcError && err.status !== 0) throw this.notEmulator(`GET /_emulator/health answered HTTP ${err.status}`);
        throw err;
      },
    );
    return this.identified;
  }

  /**
   * GET /health, first without the token: it goes out only once an emulator's own door has
   * asked for it (401, Svc-Guard: token), so a token in the environment never reaches another host.
   */
  private async health0() {
    try {
      return await this.http.call<{ service?: string }>({ method: 'GET', path: '/health' });
    } catch (err) {
      if (!(err instanceof SvcError && err.guard === 'token' && this.options.controlToken)) throw err;
      this.http = new HttpClient({ ...this.options, baseUrl: `${this.baseUrl}/_emulator`, headers: { [CONTROL_TOKEN_HEADER]: this.options.controlToken } });
      return this.http.call<{ service?: string }>({ method: 'GET', path: '/health' });
    }
  }

  private notEmulator(why: string): SvcError {
    return new SvcError(
      NOT_AN_EMULATOR,
      0,
      `${this.baseUrl} is not an svc emulator (${why}). This is an emulator-only action (on a live service it happens on the dashboard or the owner's phone); nothing was sent. Point at the emulator with --base-url or run \`svc emulator start\`.`,
      null,
    );
  }

  get = async <T = Json>(path: string, query?: Record<string, string | number | undefined>): Promise<ApiResult<T>> => {
    await this.identify();
    return this.http.call<T>({ method: 'GET', path, query });
  };
  post = async <T = Json>(path: string, body: unknown = {}): Promise<ApiResult<T>> => {
    await this.identify();
    return this.http.call<T>({ method: 'POST', path, body });
  };

  del = async <T = Json>(path: string): Promise<ApiResult<T>> => {
    await this.identify();
    return this.http.call<T>({ method: 'DELETE', path });
  };

  health = () => this.get<{ ok: boolean }>('/health');
  keys = () => this.get<{ keys: EmulatorKey[] }>('/keys');
  clock = () => this.get<ClockState>('/clock');
  advanceClock = (by: string) => this.post<ClockState>('/clock/advance', { by });
  /** Moves the clock to the next due webhook attempt (POST /_emulator/clock/advance-to-next-delivery). */
  advanceToNextDelivery = () => this.post<NextDeliveryAdvance>('/clock/advance-to-next-delivery');
  otp = (phone: string) => this.get(`/otp/${encodeURIComponent(phone)}`);
  delivery = (id: string) => this.get(`/deliveries/${encodeURIComponent(id)}`);
  redeliver = (id: string) => this.post(`/deliveries/${encodeURIComponent(id)}/redeliver`);
  approvePayrollRun = (id: string, pin: string) => this.post(`/payroll-runs/${encodeURIComponent(id)}/approve`, { pin });
  metrics = () => this.get('/metrics');
  // What the spec puts on the dashboard or a phone, one typed method each (the CLI's
  // `svc emulator …` commands and the testing API's `control` both call these).
  events = (q: { merchant_id?: string; environment?: string; type?: string } = {}) => this.get<{ events: ControlEvent[] }>('/events', q);
  users = () => this.get<{ users: ControlUser[] }>('/users');
  payees = (q: MerchantQuery) => this.get<{ payees: Payee[] }>('/payees', q);
  addPayee = (payee: NewPayee) => this.post<Payee>('/payees', payee);
  approvePayee = (id: string, pin: string) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/approve`, { pin });
  revokePayee = (id: string) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/revoke`);
  setPayeeCaps = (id: string, caps: { per_payout_cap?: number; daily_cap?: number; pin?: string }) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/caps`, caps);
  wallets = (q: MerchantQuery & { entries?: number }) => this.get<WalletView>('/wallets', q);
  topUpWallet = (body: { merchant_id: string; environment: 'test' | 'live'; currency: string; amount: number }) =>
    this.post<{ id: string; environment: string; currency: string; balance: number }>('/wallets/top-up', body);
  approveCardMandate = (id: string, card: CardDetails) => this.post<MandateView>(`/mandates/${encodeURIComponent(id)}/approve-card`, card);
  approveWalletMandate = (id: string, phone: string, pin: string) => this.post<MandateView>(`/mandates/${encodeURIComponent(id)}/approve-wallet`, { phone, pin });
  endpointDeliveries = (endpointId: string) => this.get<{ deliveries: DeliveryRow[]; total: number }>(`/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`);
  // The world as a whole (emulator/control/world-routes.ts).
  reset = () => this.post<{ reset: boolean }>('/reset');
  snapshot = () => this.get('/snapshot');
  restoreSnapshot = (snapshot: unknown) => this.post<{ restored: boolean }>('/snapshot/restore', snapshot);
  saveSnapshot = (name: string) => this.post<{ name: string; bytes: number }>('/snapshots', { name });
  restoreNamedSnapshot = (name: string) => this.post<{ restored: string }>(`/snapshots/${encodeURIComponent(name)}/restore`);
  snapshots = () => this.get<{ snapshots: Array<{ name: string; bytes: number; saved_at: string }> }>('/snapshots');
  stop = () => this.post<{ stopping: boolean; pid: number }>('/stop');
}
