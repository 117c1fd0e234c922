import { HttpClient, type ApiResult, type ClientOptions } from './http.js';
import type { Json } from './api.js';
import { NOT_AN_EMULATOR, SvcError } from './error.js';
import { CONTROL_TOKEN_HEADER } from '../../contract/network.js';
import { EMULATOR_IDENTITY } from '../../contract/control/routes.js';
import type { ControlBody, ControlQuery, ControlResponse } from '../../contract/control/schemas.js';
import type { Payee } from '../../contract/resources/payees.js';

export type { Payee, ControlResponse };

// The emulator's control API (loopback, or the control token from other hosts; never an
// Authorization header): what the spec puts on the dashboard or a phone — clock, keys, OTP
// inbox, approvals, payees, wallets, deliveries. Request and answer types are the contract's
// (contract/control/schemas.ts), inferred from the zod schemas the emulator validates with and
// documents at /_emulator/openapi.yaml; type-only imports, so the CLI loads no zod for them.

export type EmulatorKey = ControlResponse<'keys'>['keys'][number];
export type ClockState = ControlResponse<'clock'>;
export type NextDeliveryAdvance = ControlResponse<'advanceToNextDelivery'>;
export type WalletView = ControlResponse<'wallets'>;
export type MandateView = ControlResponse<'approveCardMandate'>;
export type Delivery = ControlResponse<'delivery'>;
export type DeliveryRow = ControlResponse<'endpointDeliveries'>['deliveries'][number];
export type ControlEvent = ControlResponse<'listEvents'>['events'][number];
export type ControlUser = ControlResponse<'user'>;
/** Which merchant's records, in which environment (both from the key in use when the CLI omits them). */
export type MerchantQuery = ControlQuery<'listPayees'>;
export type CardDetails = ControlBody<'approveCardMandate'>;

/**
 * A request as its user typed it: the contract's enum fields (currency, environment, event
 * type) widened to string. The CLI passes flags on as given and the emulator refuses a wrong
 * value with a 422 that names the field, as it always has.
 */
export type AsTyped<T> = { [K in keyof T]: [T[K]] extends [string | undefined] ? string | Extract<T[K], undefined> : T[K] };
export type NewPayee = AsTyped<ControlBody<'addPayee'>>;

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

  health = () => this.get<ControlResponse<'health'>>('/health');
  keys = () => this.get<ControlResponse<'keys'>>('/keys');
  clock = () => this.get<ClockState>('/clock');
  advanceClock = (by: string) => this.post<ClockState>('/clock/advance', { by } satisfies ControlBody<'advanceClock'>);
  /** Moves the clock to the next due webhook attempt (POST /_emulator/clock/advance-to-next-delivery). */
  advanceToNextDelivery = () => this.post<NextDeliveryAdvance>('/clock/advance-to-next-delivery');
  otp = (phone: string) => this.get<ControlResponse<'otpInbox'>>(`/otp/${encodeURIComponent(phone)}`);
  delivery = (id: string) => this.get<Delivery>(`/deliveries/${encodeURIComponent(id)}`);
  redeliver = (id: string) => this.post<Delivery>(`/deliveries/${encodeURIComponent(id)}/redeliver`);
  approvePayrollRun = (id: string, pin: string) =>
    this.post<ControlResponse<'approvePayrollRun'>>(`/payroll-runs/${encodeURIComponent(id)}/approve`, { pin } satisfies ControlBody<'approvePayrollRun'>);
  metrics = () => this.get<ControlResponse<'metrics'>>('/metrics');
  // What the spec puts on the dashboard or a phone, one typed method each (the CLI's
  // `svc emulator …` commands and the testing API's `control` both call these).
  events = (q: AsTyped<ControlQuery<'listEvents'>> = {}) => this.get<ControlResponse<'listEvents'>>('/events', q);
  users = () => this.get<ControlResponse<'listUsers'>>('/users');
  payees = (q: MerchantQuery) => this.get<ControlResponse<'listPayees'>>('/payees', q);
  addPayee = (payee: NewPayee) => this.post<Payee>('/payees', payee);
  approvePayee = (id: string, pin: string) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/approve`, { pin } satisfies ControlBody<'approvePayee'>);
  revokePayee = (id: string) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/revoke`);
  setPayeeCaps = (id: string, caps: ControlBody<'setPayeeCaps'>) => this.post<Payee>(`/payees/${encodeURIComponent(id)}/caps`, caps);
  wallets = (q: MerchantQuery & { entries?: number }) => this.get<WalletView>('/wallets', q);
  topUpWallet = (body: AsTyped<ControlBody<'topUpWallet'>>) => this.post<ControlResponse<'topUpWallet'>>('/wallets/top-up', body);
  approveCardMandate = (id: string, card: CardDetails) => this.post<MandateView>(`/mandates/${encodeURIComponent(id)}/approve-card`, card);
  approveWalletMandate = (id: string, phone: string, pin: string) =>
    this.post<MandateView>(`/mandates/${encodeURIComponent(id)}/approve-wallet`, { phone, pin } satisfies ControlBody<'approveWalletMandate'>);
  /** An endpoint's signing secret (svc webhooks check --endpoint). */
  endpointSecret = (endpointId: string) => this.get<ControlResponse<'endpointSecret'>>(`/webhook-endpoints/${encodeURIComponent(endpointId)}/secret`);
  endpointDeliveries = (endpointId: string) => this.get<ControlResponse<'endpointDeliveries'>>(`/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`);
  // The world as a whole (emulator/control/world-routes.ts).
  reset = () => this.post<ControlResponse<'reset'>>('/reset');
  snapshot = () => this.get<ControlResponse<'snapshot'>>('/snapshot');
  restoreSnapshot = (snapshot: unknown) => this.post<ControlResponse<'restoreSnapshot'>>('/snapshot/restore', snapshot);
  saveSnapshot = (name: string) => this.post<ControlResponse<'saveSnapshot'>>('/snapshots', { name } satisfies ControlBody<'saveSnapshot'>);
  restoreNamedSnapshot = (name: string) => this.post<ControlResponse<'restoreNamedSnapshot'>>(`/snapshots/${encodeURIComponent(name)}/restore`);
  snapshots = () => this.get<ControlResponse<'listSnapshots'>>('/snapshots');
  stop = () => this.post<ControlResponse<'stop'>>('/stop');
}
