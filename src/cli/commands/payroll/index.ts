import type { Command } from 'commander';
import { verb } from '../../options.js';
import { PAYROLL } from './flags.js';

export function register(payroll: Command): void {
  verb(
    payroll,
    'create',
    'Create a payroll run from a CSV or JSON file (checked locally first, at most 500 lines)',
    PAYROLL.create,
    () => import('./create.js'),
    'run',
    ['svc payroll create --file payroll-nov.csv --currency USD --note "November"', 'svc payroll create --file run.json --json'],
    `
A JSON file is either the whole body ({"currency","note","payments":[…]}) or just the array of
lines. The run waits for the owner's approval: svc payroll approve <run_id>.`,
  );
  verb(payroll, 'get', 'Read a run with every line', PAYROLL.get, () => import('./show.js'), 'get', ['svc payroll get prun_5Tg7Yh2Jk9Lq4Wx8Ce3R']).argument('<run_id>');
  verb(payroll, 'approve', "Emulator: approve a run with the owner's PIN (prompted on a terminal); it executes at once", PAYROLL.approve, () => import('./approve.js'), 'run', [
    'svc payroll approve prun_5Tg7Yh2Jk9Lq4Wx8Ce3R',
    'svc payroll approve prun_5Tg7Yh2Jk9Lq4Wx8Ce3R --pin 1357 --json',
  ]).argument('<run_id>');
}
