import type { Command } from 'commander';
import { verb } from '../../options.js';
import { MANDATES } from './flags.js';

export function register(mandates: Command): void {
  const run = () => import('./run.js');
  verb(mandates, 'create', 'Create a mandate (a standing authorization to charge)', MANDATES.create, run, 'create', [
    'svc mandates create --rail card --customer-ref cus_42 --currency USD --max-amount 5000',
    'svc mandates create --rail wallet --customer-ref cus_43 --currency LRD --max-amount 200000 --customer-phone +231770000201 --json',
  ]);
  verb(mandates, 'get', 'Read a mandate', MANDATES.get, run, 'get', ['svc mandates get mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K']).argument('<id>');
  verb(mandates, 'revoke', 'Revoke a mandate: future charges stop', MANDATES.revoke, run, 'revoke', ['svc mandates revoke mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K']).argument('<id>');
}
