import { parseDuration, parseRateLimit } from '../../../../contract/formats.js';
import { parseAllowedHost, parseAllowedHostList, parseControlToken, parsePublicUrl } from '../../../../contract/network.js';
import { API_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, durationOrMs, intFlag, nonEmpty, patternList } from '../../parse.js';

// `svc emulator …` flags (flags.ts). START is also the table of SVC_* variables: --help shows
// each one's variable, docs/containers.md lists them, and test/cli/emulator-env.test.ts holds
// the three to each other.

/** --allow-host, repeatable; a comma-separated value (as SVC_ALLOWED_HOSTS holds) gives several. */
function allowHosts(value: string, previous: string[] | undefined): string[] {
  const names = parseAllowedHostList(value);
  // Nothing but commas and spaces: parseAllowedHost says why that is no name.
  return [...(previous ?? []), ...(names.length > 0 ? names : [parseAllowedHost(value)])];
}

/** The options of one emulator, `start`'s and (with exec's defaults) `exec`'s; each has its SVC_* variable. */
const EMULATOR_OPTIONS = {
  port: { value: '<n>', help: 'port to listen on (0 picks a free one)', parse: intFlag(0, 65535), default: 4242, env: 'SVC_PORT' },
  host: { value: '<addr>', help: 'address to listen on', parse: nonEmpty, default: '127.0.0.1', env: 'SVC_HOST' },
  dataDir: { value: '<dir>', help: 'where the store lives; a restart on the same dir keeps everything', parse: nonEmpty, default: '.svc', env: 'SVC_DATA_DIR' },
  fixtures: { value: '<file>', help: 'seed a new data dir from this file (default: the bundled fixtures/default.json)', parse: nonEmpty, env: 'SVC_FIXTURES' },
  import: { value: '<dir>', help: 'start from the world an earlier `svc emulator exec --export-on-exit <dir>` wrote', parse: nonEmpty, env: 'SVC_IMPORT' },
  faults: { value: '<file>', help: 'start with these faults in force ({"faults": [ … ]}, as `svc emulator faults add` sends them)', parse: nonEmpty, env: 'SVC_FAULTS' },
  clock: { value: '<mode>', help: 'system (real time) or manual (frozen until `svc emulator clock advance`)', parse: choiceFlag(['system', 'manual'] as const), default: 'system', env: 'SVC_CLOCK' },
  rateLimit: { value: '<spec>', help: 'per-merchant budget, e.g. 100/1s, 6000/1m, or off', parse: parseRateLimit, default: parseRateLimit('100/1s'), shows: '100/1s', env: 'SVC_RATE_LIMIT' },
  latency: {
    value: '<ms>',
    help: 'delay every merchant request by this many ms of emulator time (with --clock manual: until the clock is advanced past it)',
    parse: intFlag(0, 60_000),
    default: 0,
    env: 'SVC_LATENCY',
  },
  quiet: { help: 'do not log requests', env: 'SVC_QUIET' },
  fsync: { help: 'fsync the journal on every write (survives power loss, slower)', env: 'SVC_FSYNC' },
  requestLog: { value: '<n>', help: 'keep the newest N requests to /v1 in the request log (GET /_emulator/requests); 0 turns it off', parse: intFlag(0, 1_000_000), default: 10_000, env: 'SVC_REQUEST_LOG' },
  retainDays: { value: '<n>', help: 'keep events, webhook deliveries and OTP messages this many days (clock time); idempotency records live 24 h', parse: intFlag(1, 3650), default: 7, env: 'SVC_RETAIN_DAYS' },
  payoutDelay: { value: '<duration>', help: 'how long the payout provider takes to answer', parse: parseDuration, default: 2_000, shows: '2s', env: 'SVC_PAYOUT_DELAY' },
  payoutOutcome: { value: '<outcome>', help: 'what the payout provider answers', parse: choiceFlag(['completed', 'failed'] as const), default: 'completed', env: 'SVC_PAYOUT_OUTCOME' },
  momoDelay: { value: '<duration>', help: 'how long a live mobile-money payment stays pending', parse: parseDuration, default: 5_000, shows: '5s', env: 'SVC_MOMO_DELAY' },
  webhookTimeout: { value: '<duration>', help: 'how long a receiver may take to answer', parse: parseDuration, default: 10_000, shows: '10s', env: 'SVC_WEBHOOK_TIMEOUT' },
  // Reaching the emulator from other hosts (containers, a shared dev box): docs/containers.md.
  allowHost: {
    value: '<name>',
    help: 'also answer to this Host name (repeatable, or comma-separated; .example.test allows subdomains; * allows any name)',
    parse: allowHosts,
    env: 'SVC_ALLOWED_HOSTS',
  },
  publicUrl: { value: '<url>', help: 'base of every URL the emulator hands out, e.g. http://svc:4242', parse: parsePublicUrl, env: 'SVC_PUBLIC_URL' },
  controlToken: {
    value: '<token>',
    help: 'token other hosts must send to the control API, dashboard and streams (made up when --host is not loopback)',
    parse: parseControlToken,
    env: 'SVC_CONTROL_TOKEN',
  },
} as const satisfies FlagTable;

export const START = { ...EMULATOR_OPTIONS, json: { help: 'print one JSON ready line on stdout and nothing else there', env: 'SVC_JSON' } } as const satisfies FlagTable;

/** `exec`: the same emulator on a free port and a temporary data dir, and what to keep at the end. */
export const EXEC = {
  ...EMULATOR_OPTIONS,
  port: { ...EMULATOR_OPTIONS.port, default: 0 },
  dataDir: { value: '<dir>', help: 'where the store lives (default: a temporary folder, removed at the end)', parse: nonEmpty, env: 'SVC_DATA_DIR' },
  exportOnExit: { value: '<dir>', help: 'write the world at the end (for `svc emulator start --import <dir>`)', parse: nonEmpty, env: 'SVC_EXPORT_ON_EXIT' },
  stopTimeout: {
    value: '<duration>',
    help: "how long the command's processes get to exit once told to stop (a signal exec passed on, then its SIGTERM to what is left) before the next step; the last is SIGKILL",
    parse: durationOrMs,
    default: 5_000,
    shows: '5s',
    env: 'SVC_STOP_TIMEOUT',
  },
  // Integration coverage (docs/coverage.md); each of the three below implies --coverage.
  coverage: { help: 'at the end, write what the command exercised of the contract (coverage.json, coverage.html) and print a summary', env: 'SVC_COVERAGE' },
  coverageOut: { value: '<dir>', help: 'where --coverage writes (checked before the command runs)', parse: nonEmpty, default: 'svc-coverage', env: 'SVC_COVERAGE_OUT' },
  coverageMin: { value: '<percent>', help: 'exit 1 after the command when coverage is below this (0 to 100), even if it passed', parse: percentage, env: 'SVC_COVERAGE_MIN' },
  coverageIgnore: {
    value: '<pattern>',
    help: 'leave out what you do not use, e.g. payroll (repeatable or comma-separated; * matches anything); counted apart',
    parse: patternList,
    env: 'SVC_COVERAGE_IGNORE',
  },
} as const satisfies FlagTable;

/** 0 to 100, decimals allowed: 80, 92.5. */
function percentage(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 100) throw new Error(`expected a percentage from 0 to 100, got "${value}".`);
  return Number(value);
}

/** --merchant and --environment: control routes that act for one merchant (merchant.ts). */
const MERCHANT = {
  ...API_FLAGS,
  merchant: { value: '<id>', help: 'merchant id (default: the merchant of the API key)' },
  environment: { value: '<env>', help: "test or live (default: the key's)" },
} as const satisfies FlagTable;

const minor = (min: number) => intFlag(min, 100_000_000_000);
const currency = { value: '<code>', help: 'USD or LRD', required: true } as const;
const amount = { value: '<minor>', help: 'minor units', parse: minor(1), required: true } as const;
const pin = (help: string) => ({ value: '<pin>', help }) as const;

export const EMULATOR = {
  status: {
    ...API_FLAGS,
    // Every other command's --timeout is the per-attempt deadline in ms; here it also says
    // how long --wait keeps trying, which reads as `--timeout 30s` in a compose file or a CI script.
    timeout: {
      value: '<duration>',
      help: 'with --wait: how long to keep trying in all; without: how long one request may take (30s, 2m, or ms)',
      parse: durationOrMs,
      default: 30_000,
      shows: '30s',
    },
    wait: { help: 'keep trying until the emulator answers (exit 0) or --timeout passes (exit 1); for health checks and CI' },
  },
  control: API_FLAGS,
  faultsAdd: {
    ...API_FLAGS,
    route: { value: '<pattern>', help: 'merchant API requests: "<METHOD> <path>", e.g. "POST /v1/api/charges" or "* /v1/api/payouts*"' },
    deliveries: { help: 'webhook delivery attempts (narrow with --event-type, --endpoint)' },
    eventType: { value: '<type>', help: 'only deliveries of this event type' },
    endpoint: { value: '<id>', help: 'only deliveries to this endpoint' },
    provider: { value: '<name>', help: 'payouts or momo (with --down)', parse: choiceFlag(['payouts', 'momo'] as const) },
    status: { value: '<code>', help: 'answer 429, 500, 502 or 503 in the spec envelope', parse: intFlag(100, 599) },
    retryAfter: { value: '<s>', help: 'with --status: send Retry-After: <s> (429 sends 1 unless told)', parse: intFlag(0, 3600) },
    latency: { value: '<dur>', help: 'add latency: 2s, or a range 100ms..2s (emulator clock)' },
    hang: { help: 'never answer (until the client gives up)' },
    reset: { help: 'reset the connection' },
    truncate: { help: 'cut the answer off half-way (needs --after-commit)' },
    duplicate: { help: 'send each delivery twice (same Svc-Delivery)' },
    drop: { help: 'lose the delivery attempt (it is retried on the schedule)' },
    delay: { value: '<dur>', help: 'hold each delivery attempt this long' },
    reorder: { value: '<window>', help: 'hold each delivery attempt a random time up to the window' },
    down: { value: '<dur>', help: 'the provider is down this long (with --provider)' },
    afterCommit: { help: 'run the request, keep it, then lose the answer (--status, --latency, --hang, --reset, --truncate)' },
    times: { value: '<n>', help: 'fire for the next n matches, then retire', parse: intFlag(1, 1_000_000) },
    probability: { value: '<p>', help: 'fire on each match with this probability (0 to 1)', parse: probability },
    seed: { value: '<n>', help: 'seed for --probability and ranges: the same seed fires on the same requests', parse: intFlag(0, 2 ** 31 - 1) },
    environment: { value: '<env>', help: 'only requests with a test or live key' },
    keyName: { value: '<name>', help: 'only requests with this fixture key (svc emulator keys)' },
  },
  faultsLog: { ...API_FLAGS, limit: { value: '<n>', help: 'the newest n (1 to 500)', parse: intFlag(1, 500), default: 50 } },
  fixturesValidate: { json: { help: 'print the result as JSON' } },
  clockAdvance: { ...API_FLAGS, toNextDelivery: { help: 'instead of a duration: move to the next due webhook attempt (the first is due 1 s after its event)' } },
  events: {
    ...API_FLAGS,
    type: { value: '<type>', help: 'only this event type' },
    merchant: { value: '<id>', help: 'merchant id (default: the merchant of the API key, when one is known)' },
    environment: { value: '<env>', help: 'test or live' },
    limit: { value: '<n>', help: 'show the newest n (1 to 500)', parse: intFlag(1, 500), default: 20 },
  },
  deliveriesList: { ...API_FLAGS, wide: { help: 'every column; lines are not cut to the terminal' } },
  merchant: MERCHANT,
  payeesAdd: {
    ...MERCHANT,
    name: { value: '<name>', help: 'payee name', required: true },
    currency,
    perPayoutCap: { value: '<minor>', help: 'cap per payout, minor units', parse: minor(0), required: true },
    dailyCap: { value: '<minor>', help: 'cap per day, minor units', parse: minor(0), required: true },
  },
  payeesApprove: { ...API_FLAGS, pin: pin('owner PIN (for scripts)') },
  payeesCaps: {
    ...API_FLAGS,
    perPayoutCap: { value: '<minor>', help: 'cap per payout, minor units', parse: minor(0) },
    dailyCap: { value: '<minor>', help: 'cap per day, minor units', parse: minor(0) },
    pin: pin('owner PIN, needed when a cap goes up'),
  },
  walletsList: { ...MERCHANT, entries: { value: '<n>', help: 'ledger entries per wallet', parse: intFlag(0, 10_000) } },
  walletsTopUp: { ...MERCHANT, currency, amount },
  giftIssue: {
    ...MERCHANT,
    currency,
    balance: { value: '<minor>', help: 'opening balance', parse: minor(0) },
    holderPhone: { value: '<phone>', help: "the customer's phone" },
  },
  load: { ...API_FLAGS, amount },
  fleetIssue: {
    ...MERCHANT,
    currency,
    categories: { value: '<list>', help: 'allowed categories, comma-separated (fuel,lubricants,…)', required: true },
    spendLimit: { value: '<minor>', help: 'spend limit per period', parse: minor(0), required: true },
    spendPeriod: { value: '<period>', help: 'daily, weekly or monthly', required: true },
    balance: { value: '<minor>', help: 'opening balance', parse: minor(0) },
    inactive: { help: 'issue it inactive' },
  },
  approveCard: {
    ...API_FLAGS,
    number: { value: '<pan>', help: 'test card number (4000000000000002 declines)', default: '4242424242424242' },
    expiry: { value: '<MM/YY>', help: 'expiry', default: '12/30' },
    cvc: { value: '<cvc>', help: 'CVC', default: '123' },
  },
  approveWallet: { ...API_FLAGS, phone: { value: '<phone>', help: "the customer's wallet phone", required: true }, pin: pin('wallet PIN (for scripts)') },
} as const satisfies Record<string, FlagTable>;

/** 0 to 1, e.g. 0.2. */
function probability(value: string): number {
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new Error(`expected a probability from 0 to 1, got "${value}".`);
  return p;
}
