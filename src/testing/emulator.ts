import { startEmulator as startServer, type ReadyInfo, type RunningEmulator, type ClockMode, DELIVERIES, EVENTS, type DeliveryRecord, type EventRecord, type Logger, type StoredRecord, type WorldSnapshot, type Fault, type FaultLogEntry, type Collection, requestsOf, waitForRequest, waitForRecord, type RequestLogEntry, type RequestLogFilter } from '../../emulator/index.js';
import { parseDuration, parseRateLimit } from '../../contract/formats.js';
import { ControlApi } from '../client/control.js';
import type { FaultInput } from '../../contract/faults.js';
import type { CheckedRequest, CheckResult, ReceiverReport } from '../../contract/webhook-check.js';
import type { ControlResponse } from '../../contract/control/schemas.js';
import { checkWebhookReceiver, type CheckOptions } from '../webhooks/check/index.js';
import type { Report } from '../scenario/report.js';

// The testing API's implementation (index.ts is the entry, and loads this module on the first
// startEmulator(): a test file that imports svc-toolkit/testing pays for the emulator only when
// it starts one).

export type { DeliveryRecord, EventRecord, WorldSnapshot, FaultInput, Fault, FaultLogEntry, RequestLogEntry, RequestLogFilter, ReceiverReport, CheckResult, CheckedRequest, Report as ScenarioReport };

export interface ScenarioOptions {
  /** Values of the file's ${.env:NAME} variables (override its env defaults). */
  env?: Record<string, string | number | boolean>;
  /** One field of one step's body each: { 'link.amount': 500 } (as `--set link.amount=500`). */
  set?: Record<string, unknown>;
  /** The fixture name of the key the steps send (default acme-test). */
  key?: string;
}
export type EmulatorKey = ReadyInfo['keys'][number];
/** GET /_emulator/coverage's report (docs/coverage.md). */
export type CoverageReport = ControlResponse<'coverage'>;

export interface StartOptions {
  /** Keep the store in this folder (journaled, survives a restart). Default: memory only. */
  dataDir?: string;
  /** A fixtures file (see fixtures/default.json); default: the bundled one. */
  fixtures?: string;
  /** 'manual' freezes time until `clock.advance()`; default 'system'. */
  clock?: ClockMode;
  /** Start time of the clock, as a Date or ms since the epoch (default: now). */
  clockStart?: Date | number;
  /** Per-merchant budget like '100/1s' (the spec's, and the default) or 'off'. */
  rateLimit?: string;
  /** Port on 127.0.0.1; default 0 (any free port). */
  port?: number;
  /** Print request lines and warnings to stderr (default: warnings only). */
  verbose?: boolean;
  /** Provider delays, as `svc emulator start` takes them: '2s', '500ms'. */
  payoutDelay?: string;
  payoutOutcome?: 'completed' | 'failed';
  momoDelay?: string;
  /** Host names to accept besides loopback ones (as --allow-host), e.g. ['app.test']. */
  allowedHosts?: string[];
  /** Base of the URLs the emulator hands out (as --public-url); baseUrl and checkoutUrl follow it. */
  publicUrl?: string;
  /** Most entries the request log keeps (as --request-log; default 10,000; 0 records nothing). */
  requestLog?: number;
}

export interface WaitOptions {
  /** Real milliseconds before the wait gives up with an error (default 5000): a safety net, not a clock. */
  timeout?: number;
}

export interface TestEmulator {
  readonly baseUrl: string;
  readonly checkoutUrl: string;
  /** null unless started with `dataDir`. */
  readonly dataDir: string | null;
  /** Every key, as the `svc emulator start --json` ready line lists them. */
  readonly keys: EmulatorKey[];
  /** The secret of the key with this fixture name (throws, naming the known ones, if none). */
  key(name: string): string;
  readonly clock: {
    /** Emulator time, ms since the epoch. */
    now(): number;
    /**
     * Moves the clock ('30s', '2h', or ms). Everything due on the way runs in time order, each with
     * the clock at its own due time (a webhook retry due 5 s after a failed attempt goes out inside
     * the same advance), and has run (attempts recorded) when this resolves.
     */
    advance(by: string | number): Promise<void>;
    /** Moves to the next due webhook attempt and makes it; resolves with how far it moved (0 if none waits). */
    advanceToNextDelivery(): Promise<number>;
  };
  /** The control API (OTP inbox, approvals, payees, wallets, deliveries, redeliver, …). */
  readonly control: ControlApi;
  /** Fault injection (docs/faults.md): the same bodies as `POST /_emulator/faults`. */
  readonly faults: {
    /** Adds a fault; a malformed one is rejected with the emulator's message naming the field. */
    add(fault: FaultInput): Promise<Fault>;
    list(): Promise<Fault[]>;
    /** Every fault that fired, oldest first. */
    log(): Promise<FaultLogEntry[]>;
    apply(preset: string): Promise<Fault[]>;
    clear(): Promise<void>;
  };
  /** The request log's entries (every /v1 request, redacted), oldest first, filtered as GET /_emulator/requests filters. */
  requests(filter?: RequestLogFilter): RequestLogEntry[];
  /** Resolves with the first request log entry (already there or still to come) the predicate accepts. */
  waitForRequest(predicate: (e: RequestLogEntry) => boolean, options?: WaitOptions): Promise<RequestLogEntry>;
  /**
   * Integration coverage (docs/coverage.md): every route, error code, event, delivery outcome and
   * flow of the contract, with how often this emulator answered or delivered it (a reset or a
   * restore keeps counting), and how to exercise what was not. `ignore`: patterns such as 'payroll'.
   */
  coverage(options?: { ignore?: string[] }): CoverageReport;
  /** Resolves with the first event (already emitted or still to come) the predicate accepts. */
  waitForEvent(predicate: (e: EventRecord) => boolean, options?: WaitOptions): Promise<EventRecord>;
  /** Resolves with the first delivery state the predicate accepts, e.g. `d => d.status === 'succeeded'`. */
  waitForDelivery(predicate: (d: DeliveryRecord) => boolean, options?: WaitOptions): Promise<DeliveryRecord>;
  /**
   * Resolves once no webhook attempt is due or in flight and every finished attempt is
   * recorded: wait on this (after `clock.advance`) rather than on time. Attempts waiting for a
   * later emulator time do not count (one held by a delay or reorder fault does: it is on its way).
   */
  idle(): Promise<void>;
  /**
   * Grades your webhook receiver as `svc webhooks check` does (docs/webhooks.md, "Check your webhook
   * receiver"): signed, forged, duplicate and unknown deliveries sent to `url`, each answer
   * checked. Resolves with the report (`report.ok`: no check failed; `strict: true` makes the
   * advice checks fail instead of warning); rejects when no connection can be made to `url` or an
   * option is wrong. Plain http:// to this emulator's `allowedHosts` is not warned about.
   */
  checkWebhookReceiver(url: string, options: Omit<CheckOptions, 'allowedHosts'>): Promise<ReceiverReport>;
  /**
   * Runs a scenario (docs/scenarios.md) against this emulator, as `svc scenario run --json`
   * does: a file path, a shipped scenario's name ('link-paid') or the file's content as an
   * object. Resolves with the same report (`report.ok`: every expectation held); rejects with
   * `file:line:column: …` for a file that cannot run (nothing is sent).
   */
  runScenario(fileOrObject: string | object, options?: ScenarioOptions): Promise<Report>;
  /** Every record back to the fixtures (the clock keeps its time); webhook retries and provider answers of the old world are gone with its records. */
  reset(): Promise<void>;
  /** The whole world as a value (deep copy). */
  snapshot(): WorldSnapshot;
  /** Puts a snapshot back; a malformed one is refused and the world is left as it was. */
  restore(snapshot: WorldSnapshot): Promise<void>;
  /** Stops it; pending work is dropped, a dataDir store is flushed. Safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 5000;

const quietLogger = (verbose: boolean): Logger => ({
  info: (m) => verbose && process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  notice: (m) => verbose && process.stderr.write(`${m}\n`),
});

export async function startEmulator(options: StartOptions = {}): Promise<TestEmulator> {
  const clockStart = options.clockStart instanceof Date ? options.clockStart.getTime() : options.clockStart;
  const running = await startServer({
    port: options.port ?? 0,
    store: options.dataDir === undefined ? 'memory' : 'file',
    dataDir: options.dataDir,
    fixtures: options.fixtures,
    clock: options.clock,
    clockStart,
    rateLimit: options.rateLimit === undefined ? undefined : parseRateLimit(options.rateLimit),
    logRequests: options.verbose ?? false,
    logger: quietLogger(options.verbose ?? false),
    allowedHosts: options.allowedHosts,
    publicUrl: options.publicUrl,
    config: {
      ...(options.payoutDelay !== undefined && { payoutResolveMs: parseDuration(options.payoutDelay) }),
      ...(options.payoutOutcome !== undefined && { payoutOutcome: options.payoutOutcome }),
      ...(options.momoDelay !== undefined && { momoClearMs: parseDuration(options.momoDelay) }),
      ...(options.requestLog !== undefined && { requestLog: options.requestLog }),
    },
  });
  return handle(running);
}

function handle(running: RunningEmulator): TestEmulator {
  const { services } = running;
  // The test's own process is on the emulator's machine: loopback, whatever publicUrl says.
  const control = new ControlApi({ baseUrl: running.localUrl, controlToken: running.controlToken ?? undefined });
  let closed: Promise<void> | undefined;
  const keys = () => running.readyInfo().keys;
  return {
    baseUrl: running.baseUrl,
    checkoutUrl: running.checkoutUrl,
    dataDir: running.dataDir,
    get keys() {
      return keys();
    },
    key(name) {
      const found = keys().find((k) => k.name === name);
      if (!found) throw new Error(`no key named "${name}"; the emulator has: ${keys().map((k) => k.name).join(', ')}`);
      return found.key;
    },
    clock: {
      now: () => services.clock.now(),
      async advance(by) {
        // Through the control route, so a test moves time exactly as `svc emulator clock advance` does.
        await control.post('/clock/advance', typeof by === 'number' ? { ms: by } : { by });
      },
      async advanceToNextDelivery() {
        return (await control.advanceToNextDelivery()).data.advanced_ms;
      },
    },
    control,
    faults: {
      add: async (fault) => (await control.post<Fault>('/faults', fault)).data,
      list: async () => (await control.get<{ faults: Fault[] }>('/faults')).data.faults,
      log: async () => (await control.get<{ entries: FaultLogEntry[] }>('/faults/log')).data.entries,
      apply: async (preset) => (await control.post<{ faults: Fault[] }>(`/faults/presets/${encodeURIComponent(preset)}/apply`)).data.faults,
      clear: async () => void (await control.post('/faults/clear')),
    },
    requests: (filter) => requestsOf(services.requestLog, filter),
    coverage: (options) => services.coverage.report(options?.ignore),
    waitForRequest: (predicate, opts) => waitForRequest(services.requestLog, predicate, opts?.timeout ?? DEFAULT_WAIT_MS),
    waitForEvent: (predicate, opts) => waitFor<EventRecord>(services.store, EVENTS, predicate, opts),
    waitForDelivery: (predicate, opts) => waitFor<DeliveryRecord>(services.store, DELIVERIES, predicate, opts),
    idle: () => running.deliveriesIdle(),
    checkWebhookReceiver: (url, options) => checkWebhookReceiver(url, { ...options, allowedHosts: services.config.allowedHosts }),
    async runScenario(source, options = {}) {
      // Loaded on first use: the YAML reader and the engine stay out of every test's import.
      const { loadScenario, ScenarioError } = await import('../scenario/load.js');
      const { runScenarios, sourcesOf } = await import('../scenario/run.js');
      const set = Object.entries(options.set ?? {}).map(([at, value]) => ({ step: at.split('.')[0], path: at.slice(at.indexOf('.') + 1), value, text: `${at}=${JSON.stringify(value)}` }));
      try {
        const [file] = typeof source === 'string' ? sourcesOf(source, process.cwd()) : [{ file: 'scenario', text: source }];
        const loaded = loadScenario(file.file, file.text, { env: options.env, set });
        const apiKey = this.key(options.key ?? 'acme-test');
        const live = apiKey.startsWith('svc_live_');
        return await runScenarios({ loaded: [loaded], baseUrl: running.localUrl, apiKey, controlToken: running.controlToken ?? undefined, live, timeoutMs: 30_000, emulator: control }, live ? 'live' : 'test');
      } catch (err) {
        throw err instanceof ScenarioError ? new Error(err.message) : err;
      }
    },
    reset: () => running.reset(),
    snapshot: () => running.snapshot(),
    // A plain Error for the test's own assertions (the emulator's ApiError carries HTTP fields).
    restore: (snapshot) => running.restore(snapshot).catch((err: Error) => Promise.reject(new Error(err.message))),
    close: () => (closed ??= running.close()),
  };
}

/**
 * Waits on the store's commit signal, not on time: the records already there are checked
 * first, then every committed write to the collection. The timeout only turns a hang into
 * an error message.
 */
function waitFor<T extends StoredRecord>(store: RunningEmulator['services']['store'], collection: Collection<T>, predicate: (r: T) => boolean, opts: WaitOptions = {}): Promise<T> {
  return waitForRecord(store, collection, (r) => r, predicate, opts.timeout ?? DEFAULT_WAIT_MS, collection.name === EVENTS.name ? 'event' : 'delivery');
}
