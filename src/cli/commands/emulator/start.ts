import { Option, type Command } from 'commander';
import { parseDuration } from '../../../../emulator/clock.js';
import { parseRateLimit } from '../../../../emulator/gateway/rate-limit.js';
import { choiceFlag, intFlag, wrapParser } from '../../parse.js';

export interface StartOptions {
  port: number;
  host: string;
  dataDir: string;
  fixtures?: string;
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
}

export function register(emulator: Command): void {
  emulator
    .command('start')
    .description('Run the local emulator of the payments service')
    .option('--port <n>', 'port to listen on (0 picks a free one)', intFlag(0, 65535), 4242)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'where the store lives; a restart on the same dir keeps everything', '.svc')
    .option('--fixtures <file>', 'seed a new data dir from this file (default: the bundled fixtures/default.json)')
    .option('--json', 'print one JSON ready line on stdout and nothing else there')
    .option('--clock <mode>', 'system (real time) or manual (frozen until `svc emulator clock advance`)', choiceFlag(['system', 'manual'] as const), 'system')
    // Parsed defaults get a readable label in --help (commander would print their JSON).
    .addOption(new Option('--rate-limit <spec>', 'per-merchant budget, e.g. 100/1s, 6000/1m, or off').argParser(wrapParser(parseRateLimit)).default(parseRateLimit('100/1s'), '100/1s'))
    .option('--latency <ms>', 'delay every merchant request by this many ms', intFlag(0, 60_000), 0)
    .option('--quiet', 'do not log requests')
    .option('--fsync', 'fsync the journal on every write (survives power loss, slower)')
    .option('--retain-days <n>', 'keep events, webhook deliveries and OTP messages this many days (clock time); idempotency records live 24 h', intFlag(1, 3650), 7)
    .addOption(new Option('--payout-delay <duration>', 'how long the payout provider takes to answer').argParser(wrapParser(parseDuration)).default(2_000, '2s'))
    .option('--payout-outcome <outcome>', 'what the payout provider answers', choiceFlag(['completed', 'failed'] as const), 'completed')
    .addOption(new Option('--momo-delay <duration>', 'how long a live mobile-money payment stays pending').argParser(wrapParser(parseDuration)).default(5_000, '5s'))
    .addOption(new Option('--webhook-timeout <duration>', 'how long a receiver may take to answer').argParser(wrapParser(parseDuration)).default(10_000, '10s'))
    .addHelpText(
      'after',
      `
Examples:
  $ svc emulator start
  $ svc emulator start --port 0 --data-dir /tmp/svc --json
  $ svc emulator start --clock manual --rate-limit off

The --json ready line:
  {"base_url":"http://127.0.0.1:4242","checkout_url":"http://127.0.0.1:4242/checkout",
   "data_dir":"/abs/.svc","keys":[{"name","key","environment","scopes","merchant_id","revoked"}]}`,
    )
    .action(async (opts: StartOptions) => (await import('./start-run.js')).run(opts));
}
