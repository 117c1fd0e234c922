import type { Command } from 'commander';
import { verb } from '../../options.js';
import { SUB_MERCHANTS } from './flags.js';

export function register(sub: Command): void {
  const run = () => import('./run.js');
  verb(sub, 'create', "Create a sub-merchant: send an OTP to the manager's phone, ask for it, complete", SUB_MERCHANTS.create, run, 'create', [
    'svc sub-merchants create --name "Acme Station 7" --phone +231770000201      # prompts for the OTP',
    'svc sub-merchants start --phone +231770000201 && \\\n    svc sub-merchants create --name "Acme Station 7" --phone +231770000201 \\\n      --otp "$(svc emulator otp +231770000201 --json | jq -r .messages[0].code)"',
  ]);
  verb(sub, 'start', "Send the OTP to the manager's phone (step 1 of create, for scripts)", SUB_MERCHANTS.start, run, 'start', ['svc sub-merchants start --phone +231770000201']);
  verb(sub, 'list', 'List sub-merchants', SUB_MERCHANTS.list, run, 'list', ['svc sub-merchants list --json']);
}
