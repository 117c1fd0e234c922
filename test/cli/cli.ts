import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { EmulatorOptions } from '../../emulator/server.js';
import { svcBin } from '../helpers/svc-process.js';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';

// Runs the built `svc` binary the way a script does: stdin closed (or fed), no terminal, a
// private HOME and config dir, no colour, none of the caller's SVC_* or CI variables. A run
// that does not finish in time is killed and reported as hung — a prompt without a TTY
// must never wait.

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document (throws, naming the output, when it is not). */
  json(): any;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Written to stdin, then closed; without it stdin is closed at once. */
  input?: string | Buffer;
  timeoutMs?: number;
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
  svc(args: string[], key?: string): Promise<CliResult>;
  /** `svc emulator <args>`, pointed the same way. */
  ctl(args: string[], key?: string): Promise<CliResult>;
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
  const svc = (args: string[], key: string = KEYS.acmeTest) => home.run([...args, ...target(running().baseUrl, key)]);
  return {
    ...home,
    get emu() {
      return running();
    },
    svc,
    ctl: (args, key) => svc(['emulator', ...args], key),
    control: async (path) => (await running().request('GET', `/_emulator${path}`, { key: null })).json.data,
  };
}

/** The caller's environment without SVC_*, CI and FORCE_COLOR, with NO_COLOR, then `extra` (undefined removes). */
function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^SVC_|^CI$|^FORCE_COLOR$/.test(k)) env[k] = v;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const env = cliEnv(opts.env);
  const child = spawn(process.execPath, [svcBin, ...args], { cwd: opts.cwd, env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const timeoutMs = opts.timeoutMs ?? 20_000;
  return new Promise((ok, fail) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`svc ${args.join(' ')} hung for ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(guard);
      ok({
        code,
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout of svc ${args.join(' ')} is not one JSON document:\n${stdout}\nstderr: ${stderr}`);
          }
        },
      });
    });
  });
}

/** The flags that point a command at a test emulator with a key. */
export const target = (baseUrl: string, key: string) => ['--base-url', baseUrl, '--api-key', key];

export interface LongRun {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr (rejects after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

/** A command that runs until stopped (listen, tail), started the way a developer does. */
export function startCli(args: string[], opts: CliOptions = {}): LongRun {
  const env = cliEnv(opts.env);
  const child = spawn(process.execPath, [svcBin, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  child.stdout!.on('data', (c) => ((stdout += c), poke()));
  child.stderr!.on('data', (c) => ((stderr += c), poke()));
  const exited = new Promise<number | null>((ok) => child.once('close', (code) => (poke(), ok(code))));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((ok, fail) => {
        const check = () => {
          const m = stdout.match(pattern) ?? stderr.match(pattern);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            ok(m);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            fail(new Error(`svc ${args[0]} exited (${child.exitCode}) before ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`no ${pattern} from svc ${args.join(' ')} within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(guard);
      return code;
    },
  };
}
