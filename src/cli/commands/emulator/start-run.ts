import chalk from 'chalk';
import { consoleLogger, startEmulator, type EmulatorOptions, type ReadyInfo } from '../../../../emulator/index.js';
import type { CliIO, Env } from '../../io.js';
import { UsageError } from '../../errors.js';
import { parseAllowedHostList, parseControlToken, parsePublicUrl } from '../../../../contract/network.js';
import { importWorld } from './world-file.js';
import { readFaultFile } from './faults.js';
import { checkedFixtures } from './fixtures.js';
import type { StartOptions } from './start.js';

/** A flag's SVC_* variable when the flag is absent, checked by the flag's own parser (exit 2 naming the variable). */
function fromEnv<T>(flag: T | undefined, env: Env, name: string, parse: (raw: string) => T): T | undefined {
  if (flag !== undefined || env[name] === undefined) return flag;
  try {
    return parse(env[name]!);
  } catch (err) {
    throw new UsageError(`${name}: ${(err as Error).message}.`);
  }
}

/** The emulator options both `start` and `exec` build from their shared flags. */
export function emulatorOptions(opts: StartOptions, env: Env): EmulatorOptions {
  return {
    port: opts.port,
    host: opts.host,
    dataDir: opts.dataDir,
    // Checked before anything starts, as `fixtures validate` checks it: exit 2 naming each path, no emulator, no lock.
    fixtures: opts.fixtures === undefined ? undefined : (checkedFixtures(opts.fixtures), opts.fixtures),
    clock: opts.clock,
    rateLimit: opts.rateLimit,
    logRequests: !opts.quiet,
    logger: consoleLogger,
    fsync: opts.fsync,
    allowedHosts: fromEnv(opts.allowHost, env, 'SVC_ALLOWED_HOSTS', parseAllowedHostList),
    publicUrl: fromEnv(opts.publicUrl, env, 'SVC_PUBLIC_URL', parsePublicUrl),
    controlToken: fromEnv(opts.controlToken, env, 'SVC_CONTROL_TOKEN', parseControlToken),
    // Checked before anything starts: a bad file is exit 2 and no emulator, no lock.
    faults: opts.faults === undefined ? undefined : readFaultFile(opts.faults),
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
export async function run(opts: StartOptions, io: CliIO): Promise<void> {
  const options = emulatorOptions(opts, io.env);
  const emulator = await startEmulator({
    ...options,
    ownsProcess: true,
    // `svc emulator stop` (POST /_emulator/stop): the same path as a SIGTERM.
    onStopRequest: () => stop('stop requested'),
  });
  if (opts.import) await importWorld(emulator, opts.import);
  // The handlers go in before the ready line: a supervisor (or a test) may signal the moment
  // it reads that line, and Node's default SIGTERM would skip the flush and leave store.lock.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!opts.json) io.stderr.write(`\n${signal}: finishing requests and flushing the store…\n`);
    emulator.close().then(
      () => process.exit(0),
      (err) => {
        // The store released store.lock whatever happened; the journal still holds every
        // acknowledged write, so the next start replays it.
        io.stderr.write(`shutdown failed: ${(err as Error).message}\nEvery acknowledged write is in the journal and is replayed at the next start; the data dir's lock was released.\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const info = emulator.readyInfo();
  if (opts.json) {
    io.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    const testKey = info.keys.find((k) => k.environment === 'test' && !k.revoked && k.scopes.length >= 10);
    const lines = [
      `${chalk.bold('svc emulator')} ready ${chalk.dim(`(clock: ${opts.clock}, rate limit: ${opts.rateLimit ? formatRateLimit(opts.rateLimit) : 'off'})`)}`,
      `  API       ${chalk.cyan(info.base_url)}`,
      `  Checkout  ${chalk.cyan(info.checkout_url)}`,
      `  Data dir  ${info.data_dir}`,
    ];
    if (testKey) lines.push(`  Test key  ${chalk.yellow(testKey.key)} ${chalk.dim(`(${testKey.name}, ${testKey.merchant_id}, all scopes)`)}`);
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
  if (info.control_token) {
    lines.push(`  Control   ${chalk.yellow(info.control_token)} ${chalk.dim('(made up: other hosts send it as Svc-Control-Token; also in the data dir\'s emulator.json)')}`);
    lines.push(`  Dashboard ${chalk.cyan(`${info.dashboard_url}?token=${info.control_token}`)}`);
  } else {
    lines.push(`  Dashboard ${chalk.cyan(info.dashboard_url)} ${chalk.dim('(other hosts: add ?token=<control token> once)')}`);
  }
  return lines;
}

/** 100/1s, 6000/1m, 50/250ms: the way --rate-limit takes it. */
function formatRateLimit({ limit, windowMs }: { limit: number; windowMs: number }): string {
  if (windowMs % 60_000 === 0) return `${limit}/${windowMs / 60_000}m`;
  if (windowMs % 1000 === 0) return `${limit}/${windowMs / 1000}s`;
  return `${limit}/${windowMs}ms`;
}
