import { Option, type Command } from 'commander';
import { parseDuration, parseRateLimit } from '../../../../contract/formats.js';
import { parseAllowedHost, parseAllowedHostList, parseControlToken, parsePublicUrl } from '../../../../contract/network.js';
import { ioOf } from '../../io.js';
import { choiceFlag, intFlag, wrapParser } from '../../parse.js';

export interface StartOptions {
  port: number;
  host: string;
  dataDir?: string;
  fixtures?: string;
  import?: string;
  faults?: string;
  json?: boolean;
  clock: 'system' | 'manual';
  rateLimit: ReturnType<typeof parseRateLimit>;
  latency: number;
  quiet?: boolean;
  fsync?: boolean;
  payoutDelay: number;
  payoutOutcome: 'completed' | 'failed';
  momoDelay: number;
  webhookTimeout: number;
  retainDays: number;
  requestLog: number;
  allowHost?: string[];
  publicUrl?: string;
  controlToken?: string;
}

/**
 * --allow-host, repeatable; a comma-separated value (as SVC_ALLOWED_HOSTS holds) gives several.
 * An empty value names nothing and is refused ("is empty").
 */
const allowHostFlag = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...wrapParser((v: string) => (v.trim() === '' ? [parseAllowedHost(v)] : parseAllowedHostList(v)))(value),
];

/** The options `start` and `exec` share: one emulator, configured the same way. */
function emulatorOptions(cmd: Command, defaults: { port: number; dataDir?: string }): Command {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', intFlag(0, 65535), defaults.port)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', defaults.dataDir ? 'where the store lives; a restart on the same dir keeps everything' : 'where the store lives (default: a temporary folder, removed at the end)', defaults.dataDir)
    .option('--fixtures <file>', 'seed a new data dir from this file (default: the bundled fixtures/default.json)')
    .option('--import <dir>', 'start from the world an earlier `svc emulator exec --export-on-exit <dir>` wrote')
    .option('--faults <file>', 'start with these faults in force ({"faults": [ … ]}, as `svc emulator faults add` sends them)')
    .option('--clock <mode>', 'system (real time) or manual (frozen until `svc emulator clock advance`)', choiceFlag(['system', 'manual'] as const), 'system')
    // Parsed defaults get a readable label in --help (commander would print their JSON).
    .addOption(new Option('--rate-limit <spec>', 'per-merchant budget, e.g. 100/1s, 6000/1m, or off').argParser(wrapParser(parseRateLimit)).default(parseRateLimit('100/1s'), '100/1s'))
    .option('--latency <ms>', 'delay every merchant request by this many ms of emulator time (with --clock manual: until the clock is advanced past it)', intFlag(0, 60_000), 0)
    .option('--quiet', 'do not log requests')
    .option('--fsync', 'fsync the journal on every write (survives power loss, slower)')
    .option('--request-log <n>', 'keep the newest N requests to /v1 in the request log (GET /_emulator/requests); 0 turns it off', intFlag(0, 1_000_000), 10_000)
    .option('--retain-days <n>', 'keep events, webhook deliveries and OTP messages this many days (clock time); idempotency records live 24 h', intFlag(1, 3650), 7)
    .addOption(new Option('--payout-delay <duration>', 'how long the payout provider takes to answer').argParser(wrapParser(parseDuration)).default(2_000, '2s'))
    .option('--payout-outcome <outcome>', 'what the payout provider answers', choiceFlag(['completed', 'failed'] as const), 'completed')
    .addOption(new Option('--momo-delay <duration>', 'how long a live mobile-money payment stays pending').argParser(wrapParser(parseDuration)).default(5_000, '5s'))
    .addOption(new Option('--webhook-timeout <duration>', 'how long a receiver may take to answer').argParser(wrapParser(parseDuration)).default(10_000, '10s'))
    // Reaching the emulator from other hosts (containers, a shared dev box): docs/containers.md.
    // (Their SVC_* variables are read from the invocation's environment in start-run.ts.)
    .option('--allow-host <name>', 'also answer to this Host name (repeatable; .example.test allows subdomains; * allows any name) [env: SVC_ALLOWED_HOSTS]', allowHostFlag)
    .option('--public-url <url>', 'base of every URL the emulator hands out, e.g. http://svc:4242 [env: SVC_PUBLIC_URL]', wrapParser(parsePublicUrl))
    .option('--control-token <token>', 'token other hosts must send to the control API, dashboard and streams (made up when --host is not loopback) [env: SVC_CONTROL_TOKEN]', wrapParser(parseControlToken));
}

export function register(emulator: Command): void {
  emulatorOptions(emulator.command('start').description('Run the local emulator of the payments service'), { port: 4242, dataDir: '.svc' })
    .option('--json', 'print one JSON ready line on stdout and nothing else there')
    .addHelpText(
      'after',
      `
Examples:
  $ svc emulator start
  $ svc emulator start --port 0 --data-dir /tmp/svc --json
  $ svc emulator start --clock manual --rate-limit off
  $ svc emulator start --host 0.0.0.0 --allow-host svc --public-url http://localhost:4242

The --json ready line:
  {"base_url":"http://127.0.0.1:4242","checkout_url":"http://127.0.0.1:4242/checkout",
   "dashboard_url":"http://127.0.0.1:4242/dashboard","public_url":null,"data_dir":"/abs/.svc",
   "keys":[{"name","key","environment","scopes","merchant_id","revoked"}],"control_token":null}
  control_token: the token made up when --host is not loopback (other hosts send it as
  Svc-Control-Token); null when none was made up.`,
    )
    .action(async (opts: StartOptions, cmd: Command) => (await import('./start-run.js')).run(opts, ioOf(cmd)));
}

export interface ExecOptions extends StartOptions {
  exportOnExit?: string;
}

export function registerExec(emulator: Command): void {
  emulatorOptions(emulator.command('exec').description('Start an emulator, run a command against it, stop it, and exit with the command\'s exit code'), { port: 0 })
    .argument('<command...>', 'the command and its arguments, after --')
    .option('--export-on-exit <dir>', 'write the world at the end (for `svc emulator start --import <dir>`)')
    .addHelpText(
      'after',
      `
The command gets SVC_BASE_URL, SVC_API_KEY (a test key with every scope), SVC_LIVE_API_KEY,
SVC_CHECKOUT_URL and SVC_DATA_DIR in its environment; svc's own commands pick them up.
It runs in a process group of its own: SIGINT, SIGTERM and SIGHUP reach every process in it
(a second one sends SIGKILL), and the emulator stops once none of them runs (what still runs
1 s after the command exited gets SIGTERM, then SIGKILL 5 s later).

Examples:
  $ svc emulator exec -- npm test
  $ svc emulator exec --clock manual --rate-limit off -- node --test
  $ svc emulator exec --export-on-exit ./svc-world -- npx vitest run`,
    )
    .action(async (command: string[], opts: ExecOptions, cmd: Command) => (await import('./exec-run.js')).run(command, opts, ioOf(cmd)));
}
