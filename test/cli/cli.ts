import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { EmulatorOptions } from '../../emulator/server.js';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import type { CliOptions, CliResult } from './cli-result.js';
import { runBinary } from './run-binary.js';
import { runInProcess } from './run-in-process.js';

export type { CliOptions, CliResult } from './cli-result.js';
export { startCli, type LongRun } from './run-binary.js';

// How CLI tests run `svc`: in this process by default (main() with an IO of the test's own:
// collected output, closed stdin, a private HOME and config dir, no colour, none of the
// caller's SVC_* or CI variables), or as the built binary with { binary: true } where only a
// real process shows what is tested — each such call says why.

/**
 * The reason most binary runs have: one command of each family (links, payments, …) runs
 * through the built bin/svc.js, proving the published entry loads and runs that family's
 * module end to end; the rest of the family's tests run in-process.
 */
export const familySmokeTest: CliOptions = { binary: true };

/** `svc <args>`, in-process unless `opts.binary`. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return opts.binary ? runBinary(args, opts) : runInProcess(args, opts);
}

export interface CliHome {
  home: string;
  configHome: string;
  run(args: string[], opts?: CliOptions): Promise<CliResult>;
}

/** A fresh HOME / XDG_CONFIG_HOME for one test file. */
export function cliHome(): CliHome {
  const home = tempDir('svc-cli-home-');
  const configHome = join(home, 'config');
  mkdirSync(configHome);
  return { home, configHome, run: (args, opts = {}) => runCli(args, { ...opts, env: { HOME: home, XDG_CONFIG_HOME: configHome, ...opts.env } }) };
}

export interface CliSession extends CliHome {
  /** The file's emulator: started in before(), stopped in after(); use it inside tests. */
  readonly emu: TestEmulator;
  /** `svc <args>` pointed at the emulator with `key` (Acme's test key unless told). */
  svc(args: string[], key?: string, opts?: CliOptions): Promise<CliResult>;
  /** `svc emulator <args>`, pointed the same way. */
  ctl(args: string[], key?: string, opts?: CliOptions): Promise<CliResult>;
  /** The data of `GET /_emulator<path>` (the control API takes no key). */
  control(path: string): Promise<any>;
}

/**
 * The set-up of most CLI test files: a fresh HOME, one emulator shared by the file's tests
 * (registers the file's before/after hooks), and the commands pointed at it.
 */
export function cliSession(options: EmulatorOptions = {}): CliSession {
  const home = cliHome();
  let emu: TestEmulator | undefined;
  before(async () => {
    emu = await startTestEmulator(options);
  });
  after(() => emu?.stop());
  const running = (): TestEmulator => {
    if (!emu) throw new Error('the emulator starts in before(): use it inside a test');
    return emu;
  };
  const svc = (args: string[], key: string = KEYS.acmeTest, opts?: CliOptions) => home.run([...args, ...target(running().baseUrl, key)], opts);
  return {
    ...home,
    get emu() {
      return running();
    },
    svc,
    ctl: (args, key, opts) => svc(['emulator', ...args], key, opts),
    control: async (path) => (await running().request('GET', `/_emulator${path}`, { key: null })).json.data,
  };
}

/**
 * A sleep for the API client that records each wait and returns at once: retries are asserted
 * against the spec's schedule (the waits) instead of being waited through.
 */
export function recordedWaits(): { waits: number[]; sleep(ms: number): Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

/** The flags that point a command at a test emulator with a key. */
export const target = (baseUrl: string, key: string) => ['--base-url', baseUrl, '--api-key', key];
