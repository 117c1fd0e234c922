import type { EmulatorClock } from './clock.js';
import type { Scheduler } from './scheduler/scheduler.js';
import type { Store, Transaction } from './store/store.js';
import type { PaymentRecord } from './resources/payments/domain.js';
import type { Timestamps } from './ids.js';
import type { FaultSet } from './faults/set.js';
import type { Environment, KeyRecord, MerchantRecord } from './resources/merchants/records.js';
import type { RequestLog } from './request-log/log.js';

// What every domain function may use. Domain code gets these, never req/res.
export interface Services {
  store: Store;
  clock: EmulatorClock;
  /** Every timed effect runs here, at its time on the clock; it is also what advances the clock (scheduler/scheduler.ts). */
  scheduler: Scheduler;
  /** Unique, increasing creation timestamps (see ids.ts). */
  stamps: Timestamps;
  config: EmulatorConfig;
  log: Logger;
  /** Reactions other modules register at setup, run inside the transaction that caused them. */
  hooks: Hooks;
  /** Injected faults (svc emulator faults …); empty unless a user set some. */
  faults: FaultSet;
  /** Every /v1 request, redacted: part of the world, kept beside the store (request-log/log.ts). */
  requestLog: RequestLog;
  /** The file store's folder (snapshots are kept under it); null with the memory store. */
  dataDir: string | null;
  /** The emulator as a whole, for the control API (set by server.ts before it listens). */
  lifecycle?: Lifecycle;
}

export interface Lifecycle {
  /** Every record back to the fixtures (world.ts). */
  reset(): Promise<void>;
  /** Stops the emulator once the current answer is sent. */
  requestStop(): void;
}

export interface Hooks {
  /** A payment reached `completed` or `failed` (wallets credit the merchant here). */
  paymentSettled: Array<(tx: Transaction, payment: PaymentRecord) => void>;
  /** The whole world was replaced (reset, restore: world.ts): drop in-memory state about it. */
  worldReplaced: Array<() => void>;
}

export interface EmulatorConfig {
  /** The base of every URL the emulator hands out: --public-url, else the address it listens on. */
  baseUrl: string;
  checkoutUrl: string;
  /** Where the server really listens (http://127.0.0.1:4242, http://0.0.0.0:4242). */
  listenUrl: string;
  /** --public-url, when given. */
  publicUrl: string | null;
  /** --allow-host names, normalized (http/local-guard.ts, contract/network.ts). */
  allowedHosts: string[];
  /** What callers that are not on this machine must present to the control surfaces. */
  controlToken: string | null;
  /** Delay before a live MoMo payment made on checkout clears, in ms (clock time). */
  momoClearMs: number;
  /** Delay before a payout's provider answers, in ms, and the outcome it answers with. */
  payoutResolveMs: number;
  payoutOutcome: 'completed' | 'failed';
  webhookTimeoutMs: number;
  /** Artificial delay before each merchant route's handler runs, in ms of emulator time (a manual clock holds the request until advanced). */
  latencyMs: number;
  /** Days (clock time) events, deliveries and OTP messages are kept (retention.ts). */
  retainDays: number;
  /** Most entries the request log keeps (request-log/); 0 records nothing. */
  requestLog: number;
}

/** The caller of a merchant route: who, in which environment, with which key. */
export interface MerchantContext extends Services {
  merchant: MerchantRecord;
  environment: Environment;
  key: KeyRecord;
  traceId: string;
  /** The idempotency key the request carried, if any. */
  idempotencyKey?: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Messages a person at the emulator's console should see (OTP "SMS", for example). */
  notice(message: string): void;
}
