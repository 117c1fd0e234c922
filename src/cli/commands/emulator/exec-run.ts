import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:os';
import { coverageHtml, redactText, startEmulator } from '../../../../emulator/index.js';
import { SCOPES } from '../../../../contract/scopes.js';
import type { CliIO } from '../../io.js';
import { SilentExit } from '../../errors.js';
import type { ExecOptions } from './start.js';
import { EXEC } from './flags.js';
import { originOf } from '../../options.js';
import type { Command } from 'commander';
import { emulatorOptions } from './start-run.js';
import { exportWorld, importWorld } from './world-file.js';
import { reapGroup, signalGroup } from './process-group.js';
import { checkCoverageOut, finishCoverage, wantsCoverage } from './exec-coverage.js';
import { messageOf } from '../../../../contract/errors.js';

// `svc emulator exec [start options] -- <command…>`: the emulator lives exactly as long as the
// command (as `firebase emulators:exec` does), so a CI step is one line and never leaves an
// emulator or a data dir behind. The exit code is the command's; svc's own failures use 2
// (bad usage, cannot start) and 127 (the command cannot be run), as shells do. exec owns the
// process tree: the command inherits its stdio and runs in a process group of its own, every
// signal exec gets goes to that whole group (npm forwards SIGTERM to its script, not to what the
// script started), and the emulator stops only once no member of the group runs any more.

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
// Windows has no process groups to signal: there the command is one child, signalled alone.
const GROUPS = process.platform !== 'win32';

export async function run(command: string[], opts: ExecOptions, io: CliIO, cmd: Command): Promise<void> {
  const origin = originOf(cmd, EXEC);
  const names = { out: origin.name('coverageOut'), min: origin.name('coverageMin'), ignore: origin.name('coverageIgnore') };
  const coverageDir = wantsCoverage(opts, origin.from('coverageOut') !== 'default') ? checkCoverageOut(opts.coverageOut, names) : undefined;
  const tempDir = opts.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'svc-exec-'));
  const dataDir = opts.dataDir ?? tempDir!;
  const cleanup = () => tempDir && rmSync(tempDir, { recursive: true, force: true });
  let emulator;
  try {
    // Request lines would interleave with the command's own output: exec keeps them off.
    emulator = await startEmulator({ ...emulatorOptions(opts, origin.name), dataDir, logRequests: false, ownsProcess: true });
  } catch (err) {
    cleanup();
    throw err;
  }
  if (opts.import) await importWorld(emulator, opts.import, origin.name('import')).catch((err) => (cleanup(), Promise.reject(err)));
  // One run, one count: a --data-dir used before keeps an older count (coverage.json) otherwise.
  if (coverageDir) emulator.services.coverage.reset();
  const info = emulator.readyInfo();
  const allScopes = (k: (typeof info.keys)[number]) => !k.revoked && SCOPES.every((s) => k.scopes.includes(s));
  const testKey = info.keys.find((k) => k.environment === 'test' && allScopes(k));
  const liveKey = info.keys.find((k) => k.environment === 'live' && allScopes(k));
  const env: NodeJS.ProcessEnv = {
    ...io.env,
    // The command runs on this machine: it reaches the emulator through loopback whatever
    // --host or --public-url say (SVC_CHECKOUT_URL stays the URL handed to payers).
    SVC_BASE_URL: emulator.localUrl,
    SVC_CHECKOUT_URL: info.checkout_url,
    ...(emulator.controlToken && { SVC_CONTROL_TOKEN: emulator.controlToken }),
    SVC_DATA_DIR: dataDir,
    ...(testKey && { SVC_API_KEY: testKey.key }),
    ...(liveKey && { SVC_LIVE_API_KEY: liveKey.key }),
  };

  const [file, ...args] = command;
  // detached: setsid(), so the command leads a new group (and session) whose id is its pid.
  // A terminal's Ctrl-C reaches exec (still in the terminal's foreground group), which passes it on.
  const child = spawn(file, args, { stdio: 'inherit', env, detached: GROUPS });
  const pgid = GROUPS ? child.pid : undefined;
  let signalled = false;
  const forward = (signal: NodeJS.Signals) => () => {
    if (pgid === undefined) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return;
    }
    // Also after the command exited: its leftovers are being waited for, and they get it too.
    // A second signal insists (Ctrl-C twice, a supervisor's second try): SIGKILL, so exec
    // never has to be killed itself, which would leave the group running without it.
    if (signalled && signalGroup(pgid, 'SIGKILL')) io.stderr.write(`svc emulator exec: ${signal} again: sent SIGKILL to the command's processes\n`);
    else signalGroup(pgid, signal);
    signalled = true;
  };
  const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);

  const outcome = await new Promise<{ code: number; why?: string }>((ok) => {
    child.once('error', (err: NodeJS.ErrnoException) =>
      ok({ code: 127, why: err.code === 'ENOENT' ? `cannot run "${file}": no such command` : `cannot run "${file}": ${err.message}` }),
    );
    child.once('exit', (code, signal) => ok({ code: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0) }));
  });
  // Members exec passed a signal on to were told to stop: they get --stop-timeout to exit (a busy
  // machine is slow to); members the command left behind unasked get a second before theirs.
  if (pgid !== undefined) await reapGroup(pgid, (line) => io.stderr.write(`svc emulator exec: ${line}\n`), { ownMs: signalled ? opts.stopTimeout : 1_000, stopMs: opts.stopTimeout });
  for (const [signal, handler] of handlers) process.off(signal, handler);

  let exitCode = outcome.code;
  if (outcome.why) io.stderr.write(`svc emulator exec: ${outcome.why}\n`);
  try {
    if (opts.exportOnExit) {
      const written = exportWorld(emulator, opts.exportOnExit);
      io.stderr.write(`svc emulator exec: world written to ${written} (start from it with svc emulator start --import ${opts.exportOnExit})\n`);
    }
  } catch (err) {
    io.stderr.write(`svc emulator exec: ${origin.name('exportOnExit')} failed: ${redactText(messageOf(err))}\n`);
    if (exitCode === 0) exitCode = 1;
  }
  if (coverageDir) {
    const report = emulator.services.coverage.report(opts.coverageIgnore);
    exitCode = finishCoverage(report, coverageHtml(report), coverageDir, opts, names, io, exitCode);
  }
  try {
    await emulator.close();
  } catch (err) {
    io.stderr.write(`svc emulator exec: stopping the emulator failed: ${redactText(messageOf(err))}\n`);
    if (exitCode === 0) exitCode = 1;
  } finally {
    cleanup();
  }
  // No process.exit: once the emulator closed, nothing of it is left to hold the process
  // (test/testing/open-handles.test.ts), so exec ends the moment it returns, like any command.
  if (exitCode !== 0) throw new SilentExit(exitCode);
}
