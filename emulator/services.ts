import type { EmulatorClock } from './clock.js';
import type { Scheduler } from './scheduler/scheduler.js';
import type { Store } from './store/store.js';
import type { Timestamps } from './ids.js';
import type { FaultSet } from './faults/set.js';
import type { Environment, KeyRecord, MerchantRecord } from './resources/merchants/records.js';
import type { RequestLog } from './request-log/log.js';
import type { HeldSecrets } from '../contract/redact.js';
import type { LoopMonitor } from './performance/loop-monitor.js';
import type { Request, Response } from 'express';
import type { TokenDoor } from './http/token-door.js';
import type { Coverage } from './coverage.js';

/**
 * One emulator: everything it keeps while it runs is a field here, made once per emulator
 * (compose.ts), so emulators side by side in one process share nothing. What every domain
 * function may use; domain code gets these, never req/res. Only types, and the engine's and the
 * stream's surfaces are spelled here: reading it needs none of the code that makes the parts.
 */
export interface Services {
  readonly store: Store;
  readonly clock: EmulatorClock;
  readonly config: EmulatorConfig;
  readonly log: Logger;
  /** Every /v1 request, redacted: part of the world, kept beside the store (request-log/log.ts). */
  readonly requestLog: RequestLog;
  /** How the event loop is doing, for GET /_emulator/metrics (performance/loop-monitor.ts). */
  readonly monitor: LoopMonitor;
  /** The file store's folder (snapshots are kept under it); null with the memory store. */
  readonly dataDir: string | null;
  /** Its secrets of no fixed shape, for every redaction (request-log/held-secrets.ts); `log` already redacts with them. */
  readonly secrets: HeldSecrets;
  /** Unique, increasing creation timestamps (see ids.ts). */
  readonly stamps: Timestamps;
  /** Reactions other modules register at setup. */
  readonly hooks: Hooks;
  /** Injected faults (svc emulator faults …); empty unless a user set some. */
  readonly faults: FaultSet;
  /** Every timed effect runs here, at its time on the clock; it is also what advances the clock (scheduler/scheduler.ts). */
  readonly scheduler: Scheduler;
  /** The webhook delivery engine (webhooks/engine.ts): attempts, bounded concurrency, the attempt log. */
  readonly deliveries: { start(): void; stop(): Promise<void>; attempt(deliveryId: string): Promise<void>; idle(): Promise<void>; isIdle(): boolean };
  /**
   * The live stream, GET /emulator/stream and the dashboard's feed (webhooks/stream.ts).
   * @internal its handlers take express's types, which the package's declarations must not reach
   */
  readonly stream: { start(): void; stop(): void; handle(req: Request, res: Response): void; handleAll(req: Request, res: Response): void };
  /** The dashboard's sessions and the wrong-token throttle of the control surfaces (http/token-door.ts). */
  readonly tokenDoor: TokenDoor;
  /** What the merchant's requests and deliveries exercised of the contract (coverage.ts). */
  readonly coverage: Coverage;
  /** The emulator as a whole, for the control API (set by server.ts before it listens). */
  lifecycle?: Lifecycle;
}

interface Lifecycle {
  /** Every record back to the fixtures (world.ts). */
  reset(): Promise<void>;
  /** Stops the emulator once the current answer is sent. */
  requestStop(): void;
}

interface Hooks {
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
  /** Count integration coverage (coverage.ts); false only to measure what counting costs. */
  coverage: boolean;
}

/** The caller of a merchant route: who, in which environment, with which key. */
export interface MerchantContext {
  services: Services;
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
