import type { Command } from 'commander';
import { verb } from '../../options.js';
import { CHARGES } from './flags.js';

export function register(charges: Command): void {
  verb(
    charges,
    'create',
    'Charge a mandate; the payment comes back with its status',
    CHARGES.create,
    () => import('./create.js'),
    'run',
    [
      'svc charges create --mandate mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --amount 1500 --currency USD',
      'svc charges create --mandate mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --amount 1500 --currency USD --idempotency-key cycle-2026-11 --fail-on-failed',
    ],
    "\nThe idempotency key (--idempotency-key, or a new UUID) is sent both as the X-Idempotency-Key\nheader and as the body's idempotency_key (your billing-cycle key).",
  );
}
