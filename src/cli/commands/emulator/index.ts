import type { Command } from 'commander';
import { register as registerStart } from './start.js';
import { verb } from '../../options.js';
import { EMULATOR as F } from './flags.js';

// `svc emulator …`: start and exec, plus the control API (the dashboard and phone actions of
// the spec), one group of commands per function below. Each command's flags are a table in
// flags.ts; the work lives in the module each one imports when it runs.

export function register(emulator: Command): void {
  registerStart(emulator);
  health(emulator);
  world(emulator);
  faults(emulator);
  time(emulator);
  webhooks(emulator);
  payees(emulator);
  money(emulator);
  customer(emulator);
}

const control = () => import('./control.js');

/** status, dashboard, keys, users, metrics. */
function health(emulator: Command): void {
  verb(emulator, 'status', 'Is the emulator answering? (control API health)', F.status, control, 'status', [
    'svc emulator status',
    'svc emulator status --wait --timeout 60s    # exit 0 once it answers (compose health checks, CI)',
  ]);
  verb(emulator, 'dashboard', "The local dashboard's URL (open it in a browser)", F.control, control, 'dashboard', [
    'svc emulator dashboard',
    'xdg-open "$(svc emulator dashboard --json | jq -r .url)"',
  ]);
  verb(emulator, 'keys', 'API keys the emulator knows (masked; --json shows them)', F.control, control, 'keys', ['svc emulator keys', "svc emulator keys --json | jq -r '.keys[0].key'"]);
  verb(emulator, 'users', 'Service users (phones, wallet balances)', F.control, control, 'users', ['svc emulator users']);
  verb(emulator, 'metrics', "The emulator's counters", F.control, control, 'metrics', ['svc emulator metrics --json']);
}

/** reset, stop, snapshots, fixtures. */
function world(emulator: Command): void {
  const run = () => import('./world.js');
  verb(emulator, 'reset', 'Every record back to the fixtures (same port, same keys)', F.control, run, 'reset', ['svc emulator reset']);
  verb(emulator, 'stop', 'Stop the running emulator gracefully and wait until it has exited', F.control, run, 'stop', ['svc emulator stop']);
  const snapshot = emulator.command('snapshot').description('Save the whole world under a name and put it back later (kept in <data dir>/snapshots)');
  const name = ['<name>', 'letters, digits, dots, dashes, underscores (up to 64)'] as const;
  verb(snapshot, 'save', 'Save every record under NAME (replaces an older one)', F.control, run, 'snapshotSave', ['svc emulator snapshot save checkout-ready']).argument(...name);
  verb(snapshot, 'restore', 'Replace every record with the snapshot NAME', F.control, run, 'snapshotRestore', ['svc emulator snapshot restore checkout-ready']).argument(...name);
  verb(snapshot, 'list', 'Saved snapshots, newest first', F.control, run, 'snapshotList', ['svc emulator snapshot list']);
  const fixtures = emulator.command('fixtures').description('Custom fixtures files (format: fixtures/fixtures.schema.json in the package)');
  verb(fixtures, 'validate', 'Check a fixtures file as the emulator would; problems are named by JSON path (exit 2)', F.fixturesValidate, () => import('./fixtures.js'), 'validate', [
    'svc emulator fixtures validate fixtures/ci.json',
  ]).argument('<file>');
}

function faults(emulator: Command): void {
  const faults = emulator.command('faults').description('Make the emulator fail on purpose: API errors, lost answers, slow or dropped webhooks, provider outages');
  const run = () => import('./faults.js');
  verb(faults, 'add', 'Add a fault (exactly one kind flag; one target: --route, --deliveries or --provider)', F.faultsAdd, run, 'add', [
    'svc emulator faults add --route "POST /v1/api/charges" --status 503 --times 2',
    'svc emulator faults add --route "POST /v1/api/charges" --status 502 --after-commit --times 1',
    'svc emulator faults add --route "* /v1/*" --latency 100ms..2s --probability 0.2 --seed 7',
    'svc emulator faults add --deliveries --duplicate',
    'svc emulator faults add --provider payouts --down 1h',
  ]);
  verb(faults, 'list', 'Faults in force (the oldest matching one fires)', F.control, run, 'list', ['svc emulator faults list']);
  verb(faults, 'remove', 'Remove one fault', F.control, run, 'remove', ['svc emulator faults remove flt_4Kj8Hg2Fd6Sa9Lp3Oi7U']).argument('<fault_id>');
  verb(faults, 'clear', 'Remove every fault', F.control, run, 'clear', ['svc emulator faults clear']);
  verb(faults, 'log', 'Faults that fired, oldest first', F.faultsLog, run, 'log', ['svc emulator faults log --limit 20']);
  verb(faults, 'presets', 'Named fault sets', F.control, run, 'presets', ['svc emulator faults presets']);
  verb(faults, 'apply', 'Add every fault of a preset', F.control, run, 'apply', ['svc emulator faults apply flaky-network']).argument('<preset>');
}

/** The clock, OTPs and events. */
function time(emulator: Command): void {
  const clock = emulator.command('clock').description("Read or move the emulator's clock");
  verb(clock, 'show', 'Current emulator time and pending timers', F.control, control, 'clockShow', ['svc emulator clock show']);
  verb(clock, 'advance', 'Move the clock forward; everything that became due fires', F.clockAdvance, control, 'clockAdvance', [
    'svc emulator clock advance 2h',
    'svc emulator clock advance --to-next-delivery',
  ]).argument('[duration]', 'e.g. 30s, 10m, 2h, 1d');
  verb(emulator, 'otp', 'The last OTP sent to a phone (the sub-merchant start step)', F.control, control, 'otp', [
    'svc emulator otp +231770000201',
    'svc emulator otp +231770000201 --json',
  ]).argument('<phone>', 'manager phone, e.g. +231770000201');
  verb(emulator, 'events', 'Events the emulator emitted (newest first)', F.events, control, 'events', [
    'svc emulator events --type payment.completed',
    'svc emulator events --limit 5 --json',
  ]);
}

function webhooks(emulator: Command): void {
  const deliveries = emulator.command('deliveries').description("The emulator's webhook delivery log");
  const run = () => import('./deliveries.js');
  verb(deliveries, 'list', "An endpoint's deliveries, newest first", F.deliveriesList, run, 'list', ['svc emulator deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U']).argument('<endpoint_id>');
  verb(deliveries, 'show', 'One delivery with its attempts', F.control, run, 'show', ['svc emulator deliveries show dlv_9Qw2Er6Ty1Ui5Op8As3D']).argument('<delivery_id>');
  verb(deliveries, 'redeliver', 'Put a failed or dead-lettered delivery back to pending (same Svc-Delivery)', F.control, run, 'redeliver', [
    'svc emulator deliveries redeliver dlv_9Qw2Er6Ty1Ui5Op8As3D',
  ]).argument('<delivery_id>');
}

/** Payout payees and what the payout provider answers. */
function payees(emulator: Command): void {
  const payees = emulator.command('payees').description('Payout payees (the dashboard side)');
  const run = () => import('./payees.js');
  verb(payees, 'list', "A merchant's payees", F.merchant, run, 'list', ['svc emulator payees list']);
  verb(payees, 'add', 'Add a payee (pending until approved with the owner PIN)', F.payeesAdd, run, 'add', [
    'svc emulator payees add --name "Ada Lovelace" --currency USD --per-payout-cap 50000 --daily-cap 100000',
  ]);
  verb(payees, 'approve', "Approve a payee with the owner's PIN (prompted on a terminal)", F.payeesApprove, run, 'approve', [
    'svc emulator payees approve payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y',
    'svc emulator payees approve payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y --pin 1357',
  ]).argument('<payee_id>');
  verb(payees, 'revoke', 'Revoke a payee', F.control, run, 'revoke', ['svc emulator payees revoke payee_6Zx1Cv5Bn9Mq3Wf7Rt2Y']).argument('<payee_id>');
  verb(payees, 'caps', "Set a payee's caps (raising one needs the owner PIN)", F.payeesCaps, run, 'caps', ['svc emulator payees caps payee_ada --daily-cap 50000']).argument('<payee_id>');

  const provider = emulator.command('payout-provider').description('What the emulated payout provider answers');
  const providerRun = () => import('./payout-provider.js');
  verb(provider, 'show', 'Delay, default outcome and queued outcomes', F.control, providerRun, 'show', ['svc emulator payout-provider show']);
  verb(provider, 'queue', 'Set the outcomes of the next payouts accepted (no outcomes: clear the queue)', F.control, providerRun, 'queue', [
    'svc emulator payout-provider queue failed',
    'svc emulator payout-provider queue failed completed',
  ]).argument('[outcomes...]', 'completed or failed, in order');
}

/** Wallets, gift-card wallets and fleet cards. */
function money(emulator: Command): void {
  const wallets = emulator.command('wallets').description('Merchant wallets and their ledgers');
  const walletsRun = () => import('./wallets.js');
  verb(wallets, 'list', "A merchant's wallet balances with the newest ledger entries", F.walletsList, walletsRun, 'list', [
    'svc emulator wallets list',
    'svc emulator wallets list --environment live --json',
  ]);
  verb(wallets, 'top-up', "Add money to a merchant's wallet", F.walletsTopUp, walletsRun, 'topUp', ['svc emulator wallets top-up --currency USD --amount 100000']);

  const cards = () => import('./cards.js');
  const gift = emulator.command('gift-card-wallets').description('Gift-card wallets (issued on the dashboard; the API only redeems)');
  verb(gift, 'list', "A merchant's gift-card wallets", F.merchant, cards, 'giftList', ['svc emulator gift-card-wallets list']);
  verb(gift, 'issue', 'Issue a gift-card wallet to a customer', F.giftIssue, cards, 'giftIssue', ['svc emulator gift-card-wallets issue --currency USD --balance 5000']);
  verb(gift, 'load', 'Load money onto a gift-card wallet', F.load, cards, 'giftLoad', ['svc emulator gift-card-wallets load mw_test_ada_usd --amount 1000']).argument('<wallet_id>');

  const fleet = emulator.command('fleet-cards').description('Fleet cards (issued on the dashboard)');
  verb(fleet, 'list', "A merchant's fleet cards", F.merchant, cards, 'fleetList', ['svc emulator fleet-cards list']);
  verb(fleet, 'issue', 'Issue a fleet card', F.fleetIssue, cards, 'fleetIssue', [
    'svc emulator fleet-cards issue --currency USD --categories fuel --spend-limit 50000 --spend-period daily --balance 100000',
  ]);
  verb(fleet, 'status', 'Activate or deactivate a fleet card', F.control, cards, 'fleetStatus', ['svc emulator fleet-cards status fc_test_truck_02 active'])
    .argument('<card_id>')
    .argument('<status>', 'active or inactive');
  verb(fleet, 'top-up', 'Add money to a fleet card', F.load, cards, 'fleetTopUp', ['svc emulator fleet-cards top-up fc_test_truck_01 --amount 20000']).argument('<card_id>');
}

/** The customer's side of a mandate. */
function customer(emulator: Command): void {
  const mandates = emulator.command('mandates').description("The customer's side of a mandate: approve it");
  const run = () => import('./mandates.js');
  verb(mandates, 'approve-card', 'Save a card on a card mandate (the approval page) and activate it', F.approveCard, run, 'approveCard', [
    'svc emulator mandates approve-card mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K',
    'svc emulator mandates approve-card mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --number 4000000000000002',
  ]).argument('<mandate_id>');
  verb(mandates, 'approve-wallet', "Approve a wallet mandate with the customer's phone and PIN (prompted on a terminal)", F.approveWallet, run, 'approveWallet', [
    'svc emulator mandates approve-wallet mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --phone +231770000201',
  ]).argument('<mandate_id>');
}
