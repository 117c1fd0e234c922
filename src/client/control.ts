import { HttpClient, type ApiResult, type ClientOptions } from './http.js';
import type { Json } from './api.js';

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

export class ControlApi {
  readonly http: HttpClient;
  constructor(options: Omit<ClientOptions, 'apiKey'>) {
    this.http = new HttpClient({ ...options, baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/_emulator` });
  }

  get = <T = Json>(path: string, query?: Record<string, string | number | undefined>): Promise<ApiResult<T>> => this.http.call<T>({ method: 'GET', path, query });
  post = <T = Json>(path: string, body: unknown = {}): Promise<ApiResult<T>> => this.http.call<T>({ method: 'POST', path, body });

  health = () => this.get<{ ok: boolean }>('/health');
  keys = () => this.get<{ keys: EmulatorKey[] }>('/keys');
  clock = () => this.get<ClockState>('/clock');
  advanceClock = (by: string) => this.post<ClockState>('/clock/advance', { by });
  /** Moves the clock to the next due webhook attempt (POST /_emulator/clock/advance-to-next-delivery). */
  advanceToNextDelivery = () => this.post<NextDeliveryAdvance>('/clock/advance-to-next-delivery');
  otp = (phone: string) => this.get(`/otp/${encodeURIComponent(phone)}`);
  events = (query: { merchant_id?: string; environment?: string; type?: string }) => this.get('/events', query);
  endpointDeliveries = (endpointId: string) => this.get(`/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`);
  delivery = (id: string) => this.get(`/deliveries/${encodeURIComponent(id)}`);
  redeliver = (id: string) => this.post(`/deliveries/${encodeURIComponent(id)}/redeliver`);
  approvePayrollRun = (id: string, pin: string) => this.post(`/payroll-runs/${encodeURIComponent(id)}/approve`, { pin });
  metrics = () => this.get('/metrics');
}
