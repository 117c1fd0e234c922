import chalk from 'chalk';
import type { Command } from 'commander';
import { consoleLogger, redactText, startEmulator, type EmulatorOptions, type ReadyInfo, type RunningEmulator } from '../../../../emulator/index.js';
import type { CliIO } from '../../io.js';
import { join } from 'node:path';
import { maskSecret } from '../../mask.js';
import { originOf } from '../../options.js';
import { importWorld } from './world-file.js';
import { readFaultFile } from './faults.js';
import { checkedFixtures } from './fixtures.js';
import { START } from './flags.js';
import type { ExecOptions, StartOptions } from './start.js';
import { messageOf } from '../../../../contract/errors.js';

/**
 * The emulator options both `start` and `exec` build from their shared flags (each already taken
 * from its SVC_* variable when absent); `name` says a flag as the user gave it (--faults or SVC_FAULTS).
 */
export function emulatorOptions(opts: StartOptions | ExecOptions, name: (prop: string) => string): EmulatorOptions {
  return {
    port: opts.port,
    host: opts.host,
    dataDir: opts.dataDir,
    // Checked before anything starts, as `fixtures validate` checks it: exit 2 naming each path, no emulator, no lock.
    fixtures: opts.fixtures === undefined ? undefined : (checkedFixtures(opts.fixtures, name('fixtures')), opts.fixtures),
    clock: opts.clock,
    rateLimit: opts.rateLimit,
    logRequests: !opts.quiet,
    logger: consoleLogger,
    fsync: opts.fsync,
    allowedHosts: opts.allowHost,
    publicUrl: opts.publicUrl,
    controlToken: opts.controlToken,
    // Checked before anything starts: a bad file is exit 2 and no emulator, no lock.
    faults: opts.faults === undefined ? undefined : readFaultFile(opts.faults, name('faults')),
    config: {
      latencyMs: opts.latency,
      payoutResolveMs: opts.payoutDelay,
      payoutOutcome: opts.payoutOutcome,
      momoClearMs: opts.momoDelay,
      webhookTimeoutMs: opts.webhookTimeout,
      retainDays: opts.retainDays,
      requestLog: opts.requestLog,
    },
  };
}

/**
 * Runs until the process is signalled (or `svc emulator stop`), then exits it: the emulator
 * owns the process (its signals, its exit code). Its output still goes through the IO.
 */
export async function run(_a: string[], opts: StartOptions, io: CliIO, cmd: Command): Promise<void> {
  const origin = originOf(cmd, START);
  const options = emulatorOptions(opts, origin.name);
  // The handlers go in before the emulator listens: a supervisor (or a test) may signal the
  // moment it answers (`status --wait`) or prints its ready line, and Node's default SIGTERM
  // would skip the flush and leave store.lock. A signal during the start stops it once started.
  let emulator: RunningEmulator | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!opts.json) io.stderr.write(`\n${signal}: finishing requests and flushing the store…\n`);
    if (emulator) close(emulator);
  };
  const close = (running: RunningEmulator) =>
    running.close().then(
      () => process.exit(0),
      (err) => {
        // The store released store.lock whatever happened; the journal still holds every
        // acknowledged write, so the next start replays it.
        io.stderr.write(`shutdown failed: ${redactText(messageOf(err))}\nEvery acknowledged write is in the journal and is replayed at the next start; the data dir's lock was released.\n`);
        process.exit(1);
      },
    );
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  emulator = await startEmulator({
    ...options,
    ownsProcess: true,
    // `svc emulator stop` (POST /_emulator/stop): the same path as a SIGTERM.
    onStopRequest: () => stop('stop requested'),
  });
  if (stopping) return void close(emulator);
  if (opts.import) await importWorld(emulator, opts.import, origin.name('import'));
  const info = emulator.readyInfo();
  if (opts.json) {
    // Where each option came from, by its flag's name in snake case, like the line's other keys.
    const sources = Object.fromEntries(Object.keys(START).map((prop) => [prop.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), origin.from(prop)]));
    io.stdout.write(`${JSON.stringify({ ...info, sources })}\n`);
  } else {
    const testKey = info.keys.find((k) => k.environment === 'test' && !k.revoked && k.scopes.length >= 10);
    const lines = [
      `${chalk.bold('svc emulator')} ready ${chalk.dim(`(clock: ${opts.clock}, rate limit: ${opts.rateLimit ? formatRateLimit(opts.rateLimit) : 'off'})`)}`,
      `  API       ${chalk.cyan(info.base_url)}`,
      `  Checkout  ${chalk.cyan(info.checkout_url)}`,
      `  Data dir  ${info.data_dir}`,
    ];
    // Masked like every key the console shows (issue 46: docker logs and CI logs are read by others); the whole key: --json, svc emulator keys --json.
    if (testKey) lines.push(`  Test key  ${chalk.yellow(maskSecret(testKey.key))} ${chalk.dim(`(${testKey.name}, ${testKey.merchant_id}, all scopes; whole: svc emulator keys --json)`)}`);
    const fromEnv = Object.entries(START).flatMap(([prop, spec]) => (origin.from(prop) === 'env' ? [spec.env] : []));
    if (fromEnv.length > 0) lines.push(`  From env  ${fromEnv.join(', ')} ${chalk.dim('(a flag wins over its variable)')}`);
    lines.push(...networkLines(options, info, emulator.controlToken !== null || options.publicUrl !== undefined || (options.allowedHosts?.length ?? 0) > 0));
    lines.push(chalk.dim('  All keys: svc emulator keys · Stop: Ctrl-C'));
    io.stdout.write(`${lines.join('\n')}\n`);
  }

}

/**
 * What a reachable emulator tells the person who started it: the names it answers to, the
 * control token it made up (shown once, here), the dashboard's login link, and the warnings.
 */
function networkLines(opts: EmulatorOptions, info: ReadyInfo, exposed: boolean): string[] {
  if (!exposed) return [];
  const lines: string[] = [];
  const names = opts.allowedHosts ?? [];
  if (names.includes('*')) {
    lines.push(chalk.red('  warning: --allow-host * accepts any Host name: DNS-rebinding protection is off for the pages and the OpenAPI document.'));
  } else if (names.length > 0) {
    lines.push(`  Names     ${names.join(', ')}`);
  } else if (opts.publicUrl === undefined) {
    lines.push(chalk.dim('  Only IP addresses reach it by Host; to use a name (a compose service), add --allow-host NAME (or SVC_ALLOWED_HOSTS).'));
  }
  // The token is never printed here, nor a login link holding it (issue 46): what the console
  // shows ends up in docker logs and CI logs. A made-up one is in the --json ready line and in emulator.json.
  if (info.control_token) {
    lines.push(`  Control   ${chalk.yellow(maskSecret(info.control_token))} ${chalk.dim(`(made up: other hosts send it as Svc-Control-Token; the whole token is control_token in ${info.data_dir ? join(info.data_dir, 'emulator.json') : 'the --json ready line'})`)}`);
  }
  lines.push(`  Dashboard ${chalk.cyan(info.dashboard_url)} ${chalk.dim('(other hosts: add ?token=<control token> once)')}`);
  return lines;
}

/** 100/1s, 6000/1m, 50/250ms: the way --rate-limit takes it. */
function formatRateLimit({ limit, windowMs }: { limit: number; windowMs: number }): string {
  if (windowMs % 60_000 === 0) return `${limit}/${windowMs / 60_000}m`;
  if (windowMs % 1000 === 0) return `${limit}/${windowMs / 1000}s`;
  return `${limit}/${windowMs}ms`;
}
