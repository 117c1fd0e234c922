import type { Command } from 'commander';
import { verb } from '../../options.js';
import { PAYOUTS } from './flags.js';

export function register(payouts: Command): void {
  const run = () => import('./run.js');
  verb(payouts, 'create', 'Pay an approved payee (the wallet is debited at once)', PAYOUTS.create, run, 'create', [
    'svc payouts create --payee payee_ada --amount 2500 --currency USD --external-ref inv-77',
  ]);
  verb(payouts, 'get', 'Read a payout (poll it: payouts send no webhook)', PAYOUTS.get, run, 'get', ['svc payouts get po_2Rf6Ty1Ui8Op3As7Dg4H']).argument('<id>');
  verb(payouts, 'list', 'List payouts, newest first', PAYOUTS.list, run, 'list', ['svc payouts list --limit 10', 'svc payouts list --json']);
}
