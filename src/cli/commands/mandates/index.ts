import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { apiOptions, examples, lazy, writeOptions } from '../../options.js';

export function register(mandates: Command): void {
  examples(
    writeOptions(mandates.command('create').description('Create a mandate (a standing authorization to charge)'))
      .requiredOption('--rail <rail>', 'card or wallet', choiceFlag(['card', 'wallet'] as const))
      .requiredOption('--customer-ref <ref>', 'your own customer id')
      .requiredOption('--currency <code>', 'card: USD; wallet: USD or LRD')
      .requiredOption('--max-amount <minor>', 'per-charge cap in minor units', intFlag(1, 100_000_000_000))
      .option('--customer-email <email>', 'for card receipts')
      .option('--customer-phone <phone>', "wallet rail: the customer's wallet phone")
      .action(lazy(() => import('./run.js'), 'create')),
    [
      'svc mandates create --rail card --customer-ref cus_42 --currency USD --max-amount 5000',
      'svc mandates create --rail wallet --customer-ref cus_43 --currency LRD --max-amount 200000 --customer-phone +231770000201 --json',
    ],
  );
  examples(apiOptions(mandates.command('get').description('Read a mandate')).argument('<id>').action(lazy(() => import('./run.js'), 'get')), [
    'svc mandates get mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K',
  ]);
  examples(
    writeOptions(mandates.command('revoke').description('Revoke a mandate: future charges stop')).argument('<id>').action(lazy(() => import('./run.js'), 'revoke')),
    ['svc mandates revoke mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K'],
  );
}
