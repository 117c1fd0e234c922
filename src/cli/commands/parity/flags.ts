import { parseDuration } from '../../../../contract/formats.js';
import type { FlagTable, FlagsOf } from '../../flags.js';
import { intFlag, repeatable } from '../../parse.js';

/** --var name=value, repeatable. */
function varFlag(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const m = /^([a-z][a-z0-9_]*)=(.*)$/s.exec(value);
  if (!m) throw new Error(`expected name=value (e.g. payee_id=payee_7Hq2Lm9X), got "${value}".`);
  return { ...previous, [m[1]]: m[2] };
}

/** The flags record and check share: the target, the optional keys, host inputs, webhooks. */
const SUITE = {
  apiKey: { value: '<key>', help: 'a TEST key of the merchant (default: $SVC_API_KEY, the profile, or the emulator in ./.svc); live keys are refused' },
  baseUrl: { value: '<url>', help: 'the host (default: $SVC_BASE_URL, the profile, or the emulator in ./.svc)' },
  profile: { value: '<name>', help: 'config profile to use' },
  otherApiKey: { value: '<key>', help: 'a test key of a second merchant (404 across merchants); without it those steps are skipped' },
  restrictedApiKey: { value: '<key>', help: 'a test key of this merchant with payments:read and without payments:create (403); without it those steps are skipped' },
  var: { value: '<name=value>', help: 'a host input, e.g. payee_id=payee_7Hq2Lm9X (repeatable; docs/parity.md lists them)', parse: varFlag },
  emulatorFixtures: { help: 'the host is an svc emulator with the bundled fixtures: use their keys and ids for what is not given (implied when the emulator is found in ./.svc)' },
  webhookUrl: { value: '<url>', help: 'a public URL that reaches --webhook-listen: an endpoint is registered there and the deliveries recorded' },
  webhookListen: { value: '<port>', help: 'local port of the receiver behind --webhook-url (default: the port of a loopback --webhook-url)', parse: intFlag(1, 65535) },
  webhookWait: { value: '<duration>', help: 'how long to wait for the deliveries', parse: parseDuration, default: 30_000, shows: '30s' },
  scenario: { value: '<name>', help: 'run only this scenario (repeatable)', parse: repeatable },
  timeout: { value: '<ms>', help: 'per-request timeout', parse: intFlag(1, 600_000), default: 30_000 },
  json: { help: 'print the result as one JSON document on stdout' },
} as const satisfies FlagTable;

export const PARITY = {
  record: { ...SUITE, out: { value: '<file>', help: 'the snapshot file to write', required: true } },
  check: {
    ...SUITE,
    snapshot: { value: '<file>', help: 'the snapshot file to compare with', required: true },
    ignore: { value: '<scenario/step:where>', help: 'accept a difference (e.g. payouts/create:$.data.status); kept in the snapshot with --reason (repeatable)', parse: repeatable },
    reason: { value: '<text>', help: 'why the --ignore differences are accepted (required with --ignore)' },
  },
} as const satisfies Record<string, FlagTable>;

/** What prepare() and play() read: the flags both commands have. */
export type SuiteFlags = FlagsOf<typeof SUITE>;
