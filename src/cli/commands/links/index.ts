import type { Command } from 'commander';
import { verb } from '../../options.js';
import { LINKS } from './flags.js';

export function register(links: Command): void {
  verb(links, 'create', 'Create a payment link', LINKS.create, () => import('./create.js'), 'run', [
    'svc links create --title "Coffee beans" --amount 1200 --currency USD',
    'svc links create --title Donation --methods momo,wallet --json',
  ]);
  verb(links, 'get', 'Read a payment link by id (pl_…) or link code (PL-…)', LINKS.get, () => import('./get.js'), 'run', [
    'svc links get pl_3kF9xQ2mTz8LwR4vNb7Y',
    'svc links get PL-7K2M9QXA --json',
  ]).argument('<id>', 'link id or link code');
  verb(links, 'simulate', 'Test keys only: pay a link in the sandbox and fire its webhook', LINKS.simulate, () => import('./simulate.js'), 'run', [
    'svc links simulate pl_3kF9xQ2mTz8LwR4vNb7Y',
    'svc links simulate pl_3kF9xQ2mTz8LwR4vNb7Y --outcome failed --method momo --json',
  ]).argument('<id>', 'link id');
}
