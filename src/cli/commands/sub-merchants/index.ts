import type { Command } from 'commander';
import { apiOptions, examples, lazy, writeOptions } from '../../options.js';

export function register(sub: Command): void {
  examples(
    writeOptions(sub.command('create').description("Create a sub-merchant: send an OTP to the manager's phone, ask for it, complete"))
      .requiredOption('--name <name>', 'merchant_name of the sub-merchant')
      .requiredOption('--phone <phone>', "manager's phone (E.164, e.g. +231770000201)")
      .option('--otp <code>', 'the OTP from an earlier `svc sub-merchants start` (scripts): skips the start step')
      .action(lazy(() => import('./run.js'), 'create')),
    [
      'svc sub-merchants create --name "Acme Station 7" --phone +231770000201      # prompts for the OTP',
      'svc sub-merchants start --phone +231770000201 && \\\n    svc sub-merchants create --name "Acme Station 7" --phone +231770000201 \\\n      --otp "$(svc emulator otp +231770000201 --json | jq -r .messages[0].code)"',
    ],
  );
  examples(
    writeOptions(sub.command('start').description("Send the OTP to the manager's phone (step 1 of create, for scripts)"))
      .requiredOption('--phone <phone>', "manager's phone")
      .action(lazy(() => import('./run.js'), 'start')),
    ['svc sub-merchants start --phone +231770000201'],
  );
  examples(apiOptions(sub.command('list').description('List sub-merchants')).action(lazy(() => import('./run.js'), 'list')), ['svc sub-merchants list --json']);
}
