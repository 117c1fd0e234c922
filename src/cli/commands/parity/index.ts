import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDuration } from '../../../../contract/formats.js';
import { examples, lazy } from '../../options.js';
import { intFlag, wrapParser } from '../../parse.js';

// `svc parity record | check`: the shipped scenario suite (src/parity) against a host, recorded
// as a normalized snapshot, and any host (the emulator by default) compared with a snapshot.
// docs/parity.md says how a team runs it nightly against its sandbox.

/** --var name=value, repeatable. */
function varFlag(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([a-z][a-z0-9_]*)=(.*)$/s.exec(value);
  if (!m) throw new InvalidArgumentError(`expected name=value (e.g. payee_id=payee_7Hq2Lm9X), got "${value}".`);
  return { ...previous, [m[1]]: m[2] };
}

const repeatable = (value: string, previous: string[] = []) => [...previous, value];

/** The flags record and check share: the target, the optional keys, host inputs, webhooks. */
function suiteOptions(cmd: Command): Command {
  return cmd
    .option('--api-key <key>', 'a TEST key of the merchant (default: $SVC_API_KEY, the profile, or the emulator in ./.svc); live keys are refused')
    .option('--base-url <url>', 'the host (default: $SVC_BASE_URL, the profile, or the emulator in ./.svc)')
    .option('--profile <name>', 'config profile to use')
    .option('--other-api-key <key>', "a test key of a second merchant (404 across merchants); without it those steps are skipped")
    .option('--restricted-api-key <key>', 'a test key of this merchant with payments:read and without payments:create (403); without it those steps are skipped')
    .option('--var <name=value>', 'a host input, e.g. payee_id=payee_7Hq2Lm9X (repeatable; docs/parity.md lists them)', varFlag)
    .option('--emulator-fixtures', "the host is an svc emulator with the bundled fixtures: use their keys and ids for what is not given (implied when the emulator is found in ./.svc)")
    .option('--webhook-url <url>', 'a public URL that reaches --webhook-listen: an endpoint is registered there and the deliveries recorded')
    .option('--webhook-listen <port>', 'local port of the receiver behind --webhook-url (default: the port of a loopback --webhook-url)', intFlag(1, 65535))
    .addOption(new Option('--webhook-wait <duration>', 'how long to wait for the deliveries').argParser(wrapParser(parseDuration)).default(30_000, '30s'))
    .option('--scenario <name>', 'run only this scenario (repeatable)', repeatable)
    .option('--timeout <ms>', 'per-request timeout', intFlag(1, 600_000), 30_000)
    .option('--json', 'print the result as one JSON document on stdout');
}

export function register(parity: Command): void {
  examples(
    suiteOptions(parity.command('record').description('Run the scenario suite against a host and write its normalized recording'))
      .requiredOption('--out <file>', 'the snapshot file to write')
      .action(lazy(() => import('./run.js'), 'record')),
    [
      'svc parity record --base-url https://sandbox.pay.example.com --api-key "$SVC_TEST_KEY" --out parity/sandbox.snapshot.json',
      'svc parity record --out parity/emulator.snapshot.json     # the emulator running from ./.svc',
    ],
  );
  examples(
    suiteOptions(parity.command('check').description('Run the suite against the emulator (default) or a host and compare it with a snapshot (exit 1 on a difference)'))
      .requiredOption('--snapshot <file>', 'the snapshot file to compare with')
      .option('--ignore <scenario/step:where>', 'accept a difference (e.g. payouts/create:$.data.status); kept in the snapshot with --reason (repeatable)', repeatable)
      .option('--reason <text>', 'why the --ignore differences are accepted (required with --ignore)')
      .action(lazy(() => import('./run.js'), 'check')),
    [
      'svc parity check --snapshot parity/sandbox.snapshot.json',
      "svc parity check --snapshot parity/sandbox.snapshot.json --ignore 'payouts/create:$.data.status' --reason 'sandbox payouts settle at once'",
      'svc parity check --snapshot parity/sandbox.snapshot.json --json > parity-report.json',
    ],
  );
}
