import type { Command } from 'commander';
import { intFlag } from '../../parse.js';
import { apiOptions, examples, lazy, moneyOptions } from '../../options.js';

export function register(payouts: Command): void {
  examples(
    moneyOptions(payouts.command('create').description('Pay an approved payee (the wallet is debited at once)'))
      .requiredOption('--payee <id>', 'payee id from the dashboard (svc emulator payees list)')
      .requiredOption('--amount <minor>', 'minor units', intFlag(1, 100_000_000_000))
      .requiredOption('--currency <code>', "the payee's currency")
      .option('--external-ref <ref>', 'your correlation id')
      .action(lazy(() => import('./run.js'), 'create')),
    ['svc payouts create --payee payee_ada --amount 2500 --currency USD --external-ref inv-77'],
  );
  examples(apiOptions(payouts.command('get').description('Read a payout (poll it: payouts send no webhook)')).argument('<id>').action(lazy(() => import('./run.js'), 'get')), [
    'svc payouts get po_2Rf6Ty1Ui8Op3As7Dg4H',
  ]);
  examples(
    apiOptions(payouts.command('list').description('List payouts, newest first'))
      .option('--limit <n>', 'page size (1 to 100)', intFlag(1, 100))
      .option('--offset <n>', 'rows to skip', intFlag(0, 1_000_000_000))
      .action(lazy(() => import('./run.js'), 'list')),
    ['svc payouts list --limit 10', 'svc payouts list --json'],
  );
}
