import type { Command } from 'commander';
import { apiOptions, examples, lazy, moneyOptions, writeOptions } from '../../options.js';

export function register(payroll: Command): void {
  examples(
    writeOptions(payroll.command('create').description('Create a payroll run from a CSV or JSON file (checked locally first, at most 500 lines)'))
      .requiredOption('--file <path>', 'CSV with a header row (external_ref,payee_phone,amount_cents[,label]) or JSON')
      .option('--currency <code>', 'USD or LRD (CSV files, or a JSON array of lines)')
      .option('--note <text>', 'a note on the run')
      .addHelpText(
        'after',
        `
A JSON file is either the whole body ({"currency","note","payments":[…]}) or just the array of
lines. The run waits for the owner's approval: svc payroll approve <run_id>.`,
      )
      .action(lazy(() => import('./create.js'))),
    ['svc payroll create --file payroll-nov.csv --currency USD --note "November"', 'svc payroll create --file run.json --json'],
  );
  examples(apiOptions(payroll.command('get').description('Read a run with every line')).argument('<run_id>').action(lazy(() => import('./show.js'), 'get')), [
    'svc payroll get prun_5Tg7Yh2Jk9Lq4Wx8Ce3R',
  ]);
  examples(
    moneyOptions(payroll.command('approve').description("Emulator: approve a run with the owner's PIN (prompted on a terminal); it executes at once"))
      .argument('<run_id>')
      .option('--pin <pin>', 'owner PIN (for scripts)')
      .action(lazy(() => import('./approve.js'))),
    ['svc payroll approve prun_5Tg7Yh2Jk9Lq4Wx8Ce3R', 'svc payroll approve prun_5Tg7Yh2Jk9Lq4Wx8Ce3R --pin 1357 --json'],
  );
}
