import { readFixtures } from '../contract/fixtures.js';
import { type RateLimitConfig } from '../contract/formats.js';
import { rmSync, writeFileSync } from 'node:fs';
import { prepareDataDir } from './data-dir.js';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { EmulatorClock, type ClockMode } from './clock.js';
import { FileStore } from './store/file-store.js';
import { MemoryStore } from './store/memory-store.js';
import type { FaultSpec } from '../contract/faults.js';
import { fixtureWorld, parseSnapshot, raiseStampFloor, restoreSnapshot, takeSnapshot, type WorldSnapshot } from './world.js';
import { DEFAULT_RETAIN_DAYS } from './retention.js';
import { DEFAULT_REQUEST_LOG } from './request-log/records.js';
import { RequestLog } from './request-log/log.js';
import type { EmulatorConfig, Logger, Services } from './services.js';
import { composeServices } from './compose.js';
import { heldSecrets, redactingLogger } from './request-log/held-secrets.js';
import { NO_HELD_SECRETS } from '../contract/redact.js';
import { createApp } from './app.js';
import { answerClientErrors } from './http/client-error.js';
import { allCollections, resources } from './registry.js';
import { saveClock, storedClock } from './scheduler/clock-record.js';
import { MERCHANTS } from './resources/merchants/records.js';
import { deliveriesIdle } from './webhooks/module.js';
import { listKeys, seed } from './fixtures.js';
import { DEFAULT_RATE_LIMIT } from './gateway/rate-limit.js';
import { networkDoor, type NetworkDoor } from './http/network-door.js';
import { LoopMonitor } from './performance/loop-monitor.js';
import { tuneHeapForLongRun } from './performance/heap.js';
import { yieldCpuToEventLoop } from './performance/helper-threads.js';
import { codeOf, messageOf } from '../contract/errors.js';
import { shippedText } from './assets.js';

export const DEFAULT_PORT = 4242;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = '.svc';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Where the file store lives; ignored with `store: 'memory'`. */
  dataDir?: string;
  /** 'file' (default): the journaled store in dataDir. 'memory': nothing on disk (tests). */
  store?: 'file' | 'memory';
  fixtures?: string;
  clock?: ClockMode;
  /** Start time for a manual clock (ms since epoch); default: now. */
  clockStart?: number;
  rateLimit?: RateLimitConfig | null;
  logRequests?: boolean;
  logger?: Logger;
  config?: Partial<Omit<EmulatorConfig, 'baseUrl' | 'checkoutUrl' | 'listenUrl' | 'publicUrl' | 'allowedHosts' | 'controlToken'>>;
  /** Names accepted in Host besides loopback ones (--allow-host; '.example.test' allows subdomains, '*' any). */
  allowedHosts?: string[];
  /** Base of every URL the emulator hands out (--public-url), e.g. http://svc:4242. */
  publicUrl?: string;
  /**
   * What callers from other hosts present to the control API, dashboard and streams
   * (--control-token). Made up when the emulator binds a non-loopback address without one.
   */
  controlToken?: string;
  fsync?: boolean;
  /**
   * The emulator owns its process (`svc emulator start`, `exec`): it tunes V8's heap for a long
   * run and, on one CPU, lowers its helper threads (performance/). Never inside someone's tests.
   */
  ownsProcess?: boolean;
  /** Faults in force from the start (`svc emulator start --faults FILE`), already validated. */
  faults?: FaultSpec[];
  /**
   * What `POST /_emulator/stop` does once it has answered: the CLI exits the process; the
   * default (an emulator inside a test process) closes it.
   */
  onStopRequest?: () => void;
}

export interface RunningEmulator {
  /** The base URL handed out: --public-url, else the listening address (a real one for 0.0.0.0). */
  baseUrl: string;
  checkoutUrl: string;
  /** A URL that reaches the emulator from its own machine (loopback when it listens on every interface). */
  localUrl: string;
  /** The control token in force (given or made up), or null on a loopback-only emulator without one. */
  controlToken: string | null;
  /** null with the memory store. */
  dataDir: string | null;
  services: Services;
  /** The ready line `svc emulator start --json` prints. */
  readyInfo(): ReadyInfo;
  /** Back to the fixtures: every record replaced, same port and keys (world.ts). */
  reset(): Promise<void>;
  snapshot(): WorldSnapshot;
  /** Puts a snapshot back; a malformed one is refused before anything changes. */
  restore(snapshot: unknown): Promise<void>;
  /** Resolves once no webhook attempt is due or in flight and every finished one is recorded. */
  deliveriesIdle(): Promise<void>;
  close(): Promise<void>;
}

export interface ReadyInfo {
  base_url: string;
  checkout_url: string;
  dashboard_url: string;
  /** --public-url as given, or null. */
  public_url: string | null;
  data_dir: string | null;
  keys: ReturnType<typeof listKeys>;
  /** The control token the emulator made up (printed once, here); null when it made none up. */
  control_token: string | null;
}

export const consoleLogger: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  notice: (m) => process.stderr.write(`${m}\n`),
};

/** What a failed listen means, in words: which port, and what to do. */
function listenError(err: unknown, port: number, host: string): unknown {
  const where = `${host}:${port}`;
  const code = codeOf(err);
  if (code === 'EADDRINUSE') return Object.assign(new Error(`port ${port} is already in use on ${host} (another emulator or another program). Choose another with --port <n>, or --port 0 for any free port.`), { code });
  if (code === 'EACCES') return Object.assign(new Error(`not allowed to listen on ${where} (ports below 1024 need privileges). Choose another with --port <n>, or --port 0.`), { code });
  if (code === 'EADDRNOTAVAIL') return Object.assign(new Error(`cannot listen on ${where}: no such address on this machine (--host).`), { code });
  return err;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  // Checked before anything is opened: a bad value starts nothing and locks no data dir.
  const door: NetworkDoor = networkDoor(options);
  // The fixtures too (contract/fixtures.ts, the check `svc emulator fixtures validate` runs),
  // whether or not this start seeds: a refused file throws naming each problem's JSON path.
  const fixtureFile = options.fixtures ? readFixtures(options.fixtures) : readFixtures('fixtures/default.json (bundled)', () => shippedText('fixtures/default.json'));
  const dataDir = options.store === 'memory' ? null : resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  // Every line the emulator writes is redacted (contract/redact.ts); before the store is open only by pattern.
  const given = options.logger ?? consoleLogger;
  if (dataDir) prepareDataDir(dataDir, redactingLogger(given, NO_HELD_SECRETS));
  const monitor = new LoopMonitor(options.ownsProcess ? { heap: tuneHeapForLongRun(), helperThreads: await yieldCpuToEventLoop() } : undefined);
  const store = dataDir ? await FileStore.open(dataDir, { fsync: options.fsync, onActivity: () => monitor.noteActivity() }) : new MemoryStore();
  // The clock carries on from where the data dir's clock stood (scheduler/clock-record.ts): a
  // manual clock from its stored time, a system clock with its stored offset, never earlier.
  const stored = storedClock(store);
  const mode = options.clock ?? 'system';
  let clock: EmulatorClock;
  try {
    clock = new EmulatorClock(mode, options.clockStart ?? (mode === 'manual' ? stored?.now_ms : undefined));
  } catch (err) {
    await store.close();
    throw err;
  }
  if (stored) clock.resume(stored);
  const config: EmulatorConfig = {
    baseUrl: '',
    checkoutUrl: '',
    listenUrl: '',
    publicUrl: door.publicUrl,
    allowedHosts: door.allowedHosts,
    controlToken: door.controlToken,
    momoClearMs: 5_000,
    payoutResolveMs: 2_000,
    payoutOutcome: 'completed',
    webhookTimeoutMs: 10_000,
    latencyMs: 0,
    retainDays: DEFAULT_RETAIN_DAYS,
    requestLog: DEFAULT_REQUEST_LOG,
    coverage: true,
    ...options.config,
  };
  for (const c of allCollections()) store.define(c); // before anything is logged: the secrets are looked up in an index
  const secrets = heldSecrets(store, config);
  const log = redactingLogger(given, secrets);
  let requestLog: RequestLog;
  try {
    requestLog = new RequestLog({ limit: config.requestLog, dir: dataDir ? join(dataDir, 'request-log') : null, fsync: options.fsync, log, clock, retainDays: config.retainDays });
  } catch (err) {
    await store.close();
    throw err;
  }
  const services = composeServices({ store, clock, config, log, requestLog, monitor, dataDir, secrets });
  for (const f of options.faults ?? []) services.faults.add(f);
  if (stored && options.clockStart !== undefined && stored.now_ms > options.clockStart) {
    services.log.warn(`the data dir's clock stands at ${new Date(stored.now_ms).toISOString()}, after the start time given; it carries on from there (the clock never goes back)`);
  }

  for (const r of resources) r.subscribe?.(services);
  const fixtures = () => fixtureFile;
  let seededAtStart: WorldSnapshot | undefined;
  try {
    if (store.count(MERCHANTS) === 0) {
      // A new world: a request log left without its store (a data dir whose store was deleted) is not its log.
      if (requestLog.status().entries > 0) requestLog.replace([]);
      seed(services, fixtures());
      seededAtStart = takeSnapshot(services);
    }
    raiseStampFloor(services);
    saveClock(services);
  } catch (err) {
    // A fixtures file that cannot be read or seeded (or a refused write) ends the start here,
    // and lets go of the data dir: the next start is not told it is in use.
    requestLog.close();
    await store.close();
    throw err;
  }
  const backToFixtures = fixtureWorld(services, fixtures, seededAtStart);
  // A reset gives a fresh world: the faults set for the last test go too (a restore keeps them).
  const reset = async () => {
    services.faults.clear();
    await backToFixtures();
  };
  services.lifecycle = {
    reset,
    // After the answer has gone out: the caller (svc emulator stop) hears "stopping", then waits for the exit.
    requestStop: () => setImmediate(() => (options.onStopRequest ? options.onStopRequest() : void close().catch((err) => services.log.warn(`stop failed: ${messageOf(err)}`)))),
  };

  const requestLine = options.logRequests ? (line: string) => given.info(line) : undefined;
  const app = createApp(services, { rateLimit: options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit, requestLine });
  const port = options.port ?? DEFAULT_PORT;
  const listenHost = options.host ?? DEFAULT_HOST;
  let server: Server;
  try {
    server = await new Promise((ok, fail) => {
      const s = app.listen(port, listenHost, (err?: Error) => (err ? fail(err) : ok(s)));
      s.once('error', fail);
    });
  } catch (err) {
    // A failed start leaves nothing behind: the store (and its store.lock) is closed, so the
    // next start with another port is not told the data dir is in use.
    services.scheduler.close();
    requestLog.close();
    await store.close();
    throw listenError(err, port, listenHost);
  }
  answerClientErrors(server); // node's own 400/431 answers, in the envelope
  const urls = door.urls(server.address() as AddressInfo);
  config.listenUrl = urls.listenUrl;
  config.baseUrl = urls.baseUrl;
  config.checkoutUrl = `${config.baseUrl}/checkout`;
  // A non-loopback address without a token: one is made up, so the control surfaces are never
  // open to the network (http/network-door.ts).
  const madeUpToken = config.controlToken === null && urls.exposed ? door.makeToken() : null;
  if (madeUpToken) config.controlToken = madeUpToken;

  const readyInfo = (): ReadyInfo => ({
    base_url: config.baseUrl,
    checkout_url: config.checkoutUrl,
    dashboard_url: `${config.baseUrl}/dashboard`,
    public_url: config.publicUrl,
    data_dir: dataDir,
    keys: listKeys(services),
    control_token: madeUpToken,
  });
  // The CLI finds a running emulator through this file (see src/cli/config): mode 0600, as it
  // holds every key and the control token. local_url is how a command on this machine reaches
  // it (loopback when it listens on every interface), whatever base_url says.
  // (A memory-store emulator belongs to the process that started it: nothing to discover.)
  const discovery = dataDir ? resolve(dataDir, 'emulator.json') : undefined;
  if (discovery) writeFileSync(discovery, JSON.stringify({ ...readyInfo(), local_url: urls.localUrl, control_token: config.controlToken, pid: process.pid }, null, 2), { mode: 0o600 });
  monitor.start(); // stalls are recorded from the start, not from the first GET /_emulator/metrics
  for (const r of resources) r.start?.(services); // webhook delivery engine and live stream
  // Every timed effect from the records: what fell due while the emulator was down runs now
  // (retention included), the rest at its time.
  services.scheduler.start();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Timed work first (nothing new starts; requests held on the clock are let go, or they
      // would hold the close for ever), then background work: open streams would hold
      // server.close(), and the webhook engine records finished attempts while the store is still open.
      services.scheduler.close();
      services.faults.release();
      monitor.stop();
      for (const r of [...resources].reverse()) await r.stop?.(services);
      // Stop accepting, let in-flight requests finish, then flush the store.
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
      });
      saveClock(services); // a system clock's time at the stop: the next start never shows less
      // After the last answer (in-flight requests are logged too), whatever the store's close does.
      requestLog.close();
      services.coverage.close();
      await store.close();
      if (discovery) rmSync(discovery, { force: true });
    })());

  return {
    baseUrl: config.baseUrl,
    checkoutUrl: config.checkoutUrl,
    localUrl: urls.localUrl,
    controlToken: config.controlToken,
    dataDir,
    services,
    readyInfo,
    reset,
    snapshot: () => takeSnapshot(services),
    restore: async (snapshot) => restoreSnapshot(services, parseSnapshot(snapshot)),
    deliveriesIdle: () => deliveriesIdle(services),
    close,
  };
}
