import type { Command } from 'commander';
import { register as registerStart, registerExec } from './start.js';
import { apiOptions, examples, lazy } from '../../options.js';
import { choiceFlag, intFlag, wrapParser } from '../../parse.js';
import { statusOptions } from './status-options.js';

/** 0 to 1, e.g. 0.2. */
function probability(value: string): number {
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new Error(`expected a probability from 0 to 1, got "${value}".`);
  return p;
}

// `svc emulator …`: start, plus the control API (the dashboard and phone actions of the spec).

export function register(emulator: Command): void {
  registerStart(emulator);
  registerExec(emulator);
  const c = (parent: Command, name: string, description: string) => apiOptions(parent.command(name).description(description));

  examples(statusOptions(emulator.command('status').description('Is the emulator answering? (control API health)')).action(lazy(() => import('./control.js'), 'status')), [
    'svc emulator status',
    'svc emulator status --wait --timeout 60s    # exit 0 once it answers (compose health checks, CI)',
  ]);
  examples(c(emulator, 'dashboard', "The local dashboard's URL (open it in a browser)").action(lazy(() => import('./control.js'), 'dashboard')), [
    'svc emulator dashboard',
    'xdg-open "$(svc emulator dashboard --json | jq -r .url)"',
  ]);
  examples(c(emulator, 'keys', 'API keys the emulator knows (masked; --json shows them)').action(lazy(() => import('./control.js'), 'keys')), [
    'svc emulator keys',
    "svc emulator keys --json | jq -r '.keys[0].key'",
  ]);

  examples(c(emulator, 'reset', 'Every record back to the fixtures (same port, same keys)').action(lazy(() => import('./world.js'), 'reset')), ['svc emulator reset']);
  examples(c(emulator, 'stop', 'Stop the running emulator gracefully and wait until it has exited').action(lazy(() => import('./world.js'), 'stop')), ['svc emulator stop']);
  const snapshot = emulator.command('snapshot').description('Save the whole world under a name and put it back later (kept in <data dir>/snapshots)');
  const snapshotName = (cmd: Command) => cmd.argument('<name>', 'letters, digits, dots, dashes, underscores (up to 64)');
  examples(snapshotName(c(snapshot, 'save', 'Save every record under NAME (replaces an older one)')).action(lazy(() => import('./world.js'), 'snapshotSave')), ['svc emulator snapshot save checkout-ready']);
  examples(snapshotName(c(snapshot, 'restore', 'Replace every record with the snapshot NAME')).action(lazy(() => import('./world.js'), 'snapshotRestore')), ['svc emulator snapshot restore checkout-ready']);
  examples(c(snapshot, 'list', 'Saved snapshots, newest first').action(lazy(() => import('./world.js'), 'snapshotList')), ['svc emulator snapshot list']);

  const faults = emulator.command('faults').description('Make the emulator fail on purpose: API errors, lost answers, slow or dropped webhooks, provider outages');
  examples(
    c(faults, 'add', 'Add a fault (exactly one kind flag; one target: --route, --deliveries or --provider)')
      .option('--route <pattern>', 'merchant API requests: "<METHOD> <path>", e.g. "POST /v1/api/charges" or "* /v1/api/payouts*"')
      .option('--deliveries', 'webhook delivery attempts (narrow with --event-type, --endpoint)')
      .option('--event-type <type>', 'only deliveries of this event type')
      .option('--endpoint <id>', 'only deliveries to this endpoint')
      .option('--provider <name>', 'payouts or momo (with --down)', choiceFlag(['payouts', 'momo'] as const))
      .option('--status <code>', 'answer 429, 500, 502 or 503 in the spec envelope', intFlag(100, 599))
      .option('--retry-after <s>', 'with --status: send Retry-After: <s> (429 sends 1 unless told)', intFlag(0, 3600))
      .option('--latency <dur>', 'add latency: 2s, or a range 100ms..2s (emulator clock)')
      .option('--hang', 'never answer (until the client gives up)')
      .option('--reset', 'reset the connection')
      .option('--truncate', 'cut the answer off half-way (needs --after-commit)')
      .option('--duplicate', 'send each delivery twice (same Svc-Delivery)')
      .option('--drop', 'lose the delivery attempt (it is retried on the schedule)')
      .option('--delay <dur>', 'hold each delivery attempt this long')
      .option('--reorder <window>', 'hold each delivery attempt a random time up to the window')
      .option('--down <dur>', 'the provider is down this long (with --provider)')
      .option('--after-commit', 'run the request, keep it, then lose the answer (--status, --latency, --hang, --reset, --truncate)')
      .option('--times <n>', 'fire for the next n matches, then retire', intFlag(1, 1_000_000))
      .option('--probability <p>', 'fire on each match with this probability (0 to 1)', wrapParser(probability))
      .option('--seed <n>', 'seed for --probability and ranges: the same seed fires on the same requests', intFlag(0, 2 ** 31 - 1))
      .option('--environment <env>', 'only requests with a test or live key')
      .option('--key-name <name>', 'only requests with this fixture key (svc emulator keys)')
      .action(lazy(() => import('./faults.js'), 'add')),
    [
      'svc emulator faults add --route "POST /v1/api/charges" --status 503 --times 2',
      'svc emulator faults add --route "POST /v1/api/charges" --status 502 --after-commit --times 1',
      'svc emulator faults add --route "* /v1/*" --latency 100ms..2s --probability 0.2 --seed 7',
      'svc emulator faults add --deliveries --duplicate',
      'svc emulator faults add --provider payouts --down 1h',
    ],
  );
  examples(c(faults, 'list', 'Faults in force (the oldest matching one fires)').action(lazy(() => import('./faults.js'), 'list')), ['svc emulator faults list']);
  examples(c(faults, 'remove', 'Remove one fault').argument('<fault_id>').action(lazy(() => import('./faults.js'), 'remove')), ['svc emulator faults remove flt_4Kj8Hg2Fd6Sa9Lp3Oi7U']);
  examples(c(faults, 'clear', 'Remove every fault').action(lazy(() => import('./faults.js'), 'clear')), ['svc emulator faults clear']);
  examples(
    c(faults, 'log', 'Faults that fired, oldest first')
      .option('--limit <n>', 'the newest n (1 to 500)', intFlag(1, 500), 50)
      .action(lazy(() => import('./faults.js'), 'log')),
    ['svc emulator faults log --limit 20'],
  );
  examples(c(faults, 'presets', 'Named fault sets').action(lazy(() => import('./faults.js'), 'presets')), ['svc emulator faults presets']);
  examples(c(faults, 'apply', 'Add every fault of a preset').argument('<preset>').action(lazy(() => import('./faults.js'), 'apply')), ['svc emulator faults apply flaky-network']);

  const fixtures = emulator.command('fixtures').description('Custom fixtures files (format: fixtures/fixtures.schema.json in the package)');
  examples(
    fixtures
      .command('validate')
      .description('Check a fixtures file as the emulator would; problems are named by JSON path (exit 2)')
      .argument('<file>')
      .option('--json', 'print the result as JSON')
      .action(lazy(() => import('./fixtures.js'), 'validate')),
    ['svc emulator fixtures validate fixtures/ci.json'],
  );

  const clock = emulator.command('clock').description("Read or move the emulator's clock");
  examples(c(clock, 'show', 'Current emulator time and pending timers').action(lazy(() => import('./control.js'), 'clockShow')), ['svc emulator clock show']);
  examples(
    c(clock, 'advance', 'Move the clock forward; everything that became due fires')
      .argument('[duration]', 'e.g. 30s, 10m, 2h, 1d')
      .option('--to-next-delivery', 'instead of a duration: move to the next due webhook attempt (the first is due 1 s after its event)')
      .action(lazy(() => import('./control.js'), 'clockAdvance')),
    ['svc emulator clock advance 2h', 'svc emulator clock advance --to-next-delivery'],
  );

  examples(
    c(emulator, 'otp', 'The last OTP sent to a phone (the sub-merchant start step)')
      .argument('<phone>', 'manager phone, e.g. +231770000201')
      .action(lazy(() => import('./control.js'), 'otp')),
    ['svc emulator otp +231770000201', 'svc emulator otp +231770000201 --json'],
  );

  examples(
    c(emulator, 'events', 'Events the emulator emitted (newest first)')
      .option('--type <type>', 'only this event type')
      .option('--merchant <id>', 'merchant id (default: the merchant of the API key, when one is known)')
      .option('--environment <env>', 'test or live')
      .option('--limit <n>', 'show the newest n (1 to 500)', intFlag(1, 500), 20)
      .action(lazy(() => import('./control.js'), 'events')),
    ['svc emulator events --type payment.completed', 'svc emulator events --limit 5 --json'],
  );

  const deliveries = emulator.command('deliveries').description("The emulator's webhook delivery log");
  examples(
    c(deliveries, 'list', "An endpoint's deliveries, newest first")
      .argument('<endpoint_id>')
      .option('--wide', 'every column; lines are not cut to the terminal')
      .action(lazy(() => import('./deliveries.js'), 'list')),
    ['svc emulator deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U'],
  );
  examples(c(deliveries, 'show', 'One delivery with its attempts').argument('<delivery_id>').action(lazy(() => import('./deliveries.js'), 'show')), [
    'svc emulator deliveries show dlv_9Qw2Er6Ty1Ui5Op8As3D',
  ]);
  examples(
    c(deliveries, 'redeliver', 'Put a failed or dead-lettered delivery back to pending (same Svc-Delivery)')
      .argument('<delivery_id>')
      .action(lazy(() => import('./deliveries.js'), 'redeliver')),
    ['svc emulator deliveries redeliver dlv_9Qw2Er6Ty1Ui5Op8As3D'],
  );

  const payees = emulator.command('payees').description('Payout payees (the dashboard side)');
  const merchantOpts = (cmd: Command) =>
    cmd.option('--merchant <id>', 'merchant id (default: the merchant of the API key)').option('--environment <env>', "test or live (default: the key's)");
  examples(merchantOpts(c(payees, 'list', "A merchant's payees")).action(lazy(() => import('./payees.js'), 'list')), ['svc emulator payees list']);
  examples(
    merchantOpts(c(payees, 'add', 'Add a payee (pending until approved with the owner PIN)'))
      .requiredOption('--name <name>', 'payee name')
      .requiredOption('--currency <code>', 'USD or LRD')
      .requiredOption('--per-payout-cap <minor>', 'cap per payout, minor units', intFlag(0, 100_000_000_000))
      .requiredOption('--daily-cap <minor>', 'cap per day, minor units', intFlag(0, 100_000_000_000))
      .action(lazy(() => import('./payees.js'), 'add')),
    ['svc emulator payees add --name "Ada Lovelace" --currency USD --per-payout-cap 50000 --daily-cap 100000'],
  );
  examples(
    c(payees, 'approve', "Approve a payee with the owner's PIN (prompted on a terminal)")
      .argument('<payee_id>')
      .option('--pin <pin>', 'owner PIN (for scripts)')
      .action(lazy(() => import('./payees.js'), 'approve')),
    ['svc emulator payees approve payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y', 'svc emulator payees approve payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y --pin 1357'],
  );
  examples(c(payees, 'revoke', 'Revoke a payee').argument('<payee_id>').action(lazy(() => import('./payees.js'), 'revoke')), [
    'svc emulator payees revoke payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y',
  ]);
  examples(
    c(payees, 'caps', "Set a payee's caps (raising one needs the owner PIN)")
      .argument('<payee_id>')
      .option('--per-payout-cap <minor>', 'cap per payout, minor units', intFlag(0, 100_000_000_000))
      .option('--daily-cap <minor>', 'cap per day, minor units', intFlag(0, 100_000_000_000))
      .option('--pin <pin>', 'owner PIN, needed when a cap goes up')
      .action(lazy(() => import('./payees.js'), 'caps')),
    ['svc emulator payees caps payee_ada --daily-cap 50000'],
  );

  const provider = emulator.command('payout-provider').description('What the emulated payout provider answers');
  examples(c(provider, 'show', 'Delay, default outcome and queued outcomes').action(lazy(() => import('./payout-provider.js'), 'show')), [
    'svc emulator payout-provider show',
  ]);
  examples(
    c(provider, 'queue', 'Set the outcomes of the next payouts accepted (no outcomes: clear the queue)')
      .argument('[outcomes...]', 'completed or failed, in order')
      .action(lazy(() => import('./payout-provider.js'), 'queue')),
    ['svc emulator payout-provider queue failed', 'svc emulator payout-provider queue failed completed'],
  );

  const wallets = emulator.command('wallets').description("Merchant wallets and their ledgers");
  examples(
    merchantOpts(c(wallets, 'list', "A merchant's wallet balances with the newest ledger entries"))
      .option('--entries <n>', 'ledger entries per wallet', intFlag(0, 10_000))
      .action(lazy(() => import('./wallets.js'), 'list')),
    ['svc emulator wallets list', 'svc emulator wallets list --environment live --json'],
  );
  examples(
    merchantOpts(c(wallets, 'top-up', "Add money to a merchant's wallet"))
      .requiredOption('--currency <code>', 'USD or LRD')
      .requiredOption('--amount <minor>', 'minor units', intFlag(1, 100_000_000_000))
      .action(lazy(() => import('./wallets.js'), 'topUp')),
    ['svc emulator wallets top-up --currency USD --amount 100000'],
  );

  const gift = emulator.command('gift-card-wallets').description('Gift-card wallets (issued on the dashboard; the API only redeems)');
  examples(merchantOpts(c(gift, 'list', "A merchant's gift-card wallets")).action(lazy(() => import('./cards.js'), 'giftList')), ['svc emulator gift-card-wallets list']);
  examples(
    merchantOpts(c(gift, 'issue', 'Issue a gift-card wallet to a customer'))
      .requiredOption('--currency <code>', 'USD or LRD')
      .option('--balance <minor>', 'opening balance', intFlag(0, 100_000_000_000))
      .option('--holder-phone <phone>', "the customer's phone")
      .action(lazy(() => import('./cards.js'), 'giftIssue')),
    ['svc emulator gift-card-wallets issue --currency USD --balance 5000'],
  );
  examples(
    c(gift, 'load', 'Load money onto a gift-card wallet')
      .argument('<wallet_id>')
      .requiredOption('--amount <minor>', 'minor units', intFlag(1, 100_000_000_000))
      .action(lazy(() => import('./cards.js'), 'giftLoad')),
    ['svc emulator gift-card-wallets load mw_test_ada_usd --amount 1000'],
  );

  const fleet = emulator.command('fleet-cards').description('Fleet cards (issued on the dashboard)');
  examples(merchantOpts(c(fleet, 'list', "A merchant's fleet cards")).action(lazy(() => import('./cards.js'), 'fleetList')), ['svc emulator fleet-cards list']);
  examples(
    merchantOpts(c(fleet, 'issue', 'Issue a fleet card'))
      .requiredOption('--currency <code>', 'USD or LRD')
      .requiredOption('--categories <list>', 'allowed categories, comma-separated (fuel,lubricants,…)')
      .requiredOption('--spend-limit <minor>', 'spend limit per period', intFlag(0, 100_000_000_000))
      .requiredOption('--spend-period <period>', 'daily, weekly or monthly')
      .option('--balance <minor>', 'opening balance', intFlag(0, 100_000_000_000))
      .option('--inactive', 'issue it inactive')
      .action(lazy(() => import('./cards.js'), 'fleetIssue')),
    ['svc emulator fleet-cards issue --currency USD --categories fuel --spend-limit 50000 --spend-period daily --balance 100000'],
  );
  examples(
    c(fleet, 'status', 'Activate or deactivate a fleet card').argument('<card_id>').argument('<status>', 'active or inactive').action(lazy(() => import('./cards.js'), 'fleetStatus')),
    ['svc emulator fleet-cards status fc_test_truck_02 active'],
  );
  examples(
    c(fleet, 'top-up', 'Add money to a fleet card')
      .argument('<card_id>')
      .requiredOption('--amount <minor>', 'minor units', intFlag(1, 100_000_000_000))
      .action(lazy(() => import('./cards.js'), 'fleetTopUp')),
    ['svc emulator fleet-cards top-up fc_test_truck_01 --amount 20000'],
  );

  const mandates = emulator.command('mandates').description("The customer's side of a mandate: approve it");
  examples(
    c(mandates, 'approve-card', 'Save a card on a card mandate (the approval page) and activate it')
      .argument('<mandate_id>')
      .option('--number <pan>', 'test card number (4000000000000002 declines)', '4242424242424242')
      .option('--expiry <MM/YY>', 'expiry', '12/30')
      .option('--cvc <cvc>', 'CVC', '123')
      .action(lazy(() => import('./mandates.js'), 'approveCard')),
    ['svc emulator mandates approve-card mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K', 'svc emulator mandates approve-card mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --number 4000000000000002'],
  );
  examples(
    c(mandates, 'approve-wallet', "Approve a wallet mandate with the customer's phone and PIN (prompted on a terminal)")
      .argument('<mandate_id>')
      .requiredOption('--phone <phone>', "the customer's wallet phone")
      .option('--pin <pin>', 'wallet PIN (for scripts)')
      .action(lazy(() => import('./mandates.js'), 'approveWallet')),
    ['svc emulator mandates approve-wallet mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --phone +231770000201'],
  );

  examples(c(emulator, 'users', 'Service users (phones, wallet balances)').action(lazy(() => import('./control.js'), 'users')), ['svc emulator users']);
  examples(c(emulator, 'metrics', "The emulator's counters").action(lazy(() => import('./control.js'), 'metrics')), ['svc emulator metrics --json']);
}
