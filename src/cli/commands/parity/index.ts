import type { Command } from 'commander';
import { verb } from '../../options.js';
import { PARITY } from './flags.js';

// `svc parity record | check`: the shipped scenario suite (src/parity) against a host, recorded
// as a normalized snapshot, and any host (the emulator by default) compared with a snapshot.
// docs/parity.md says how a team runs it nightly against its sandbox.

export function register(parity: Command): void {
  const run = () => import('./run.js');
  verb(parity, 'record', 'Run the scenario suite against a host and write its normalized recording', PARITY.record, run, 'record', [
    'svc parity record --base-url https://sandbox.pay.example.com --api-key "$SVC_TEST_KEY" --out parity/sandbox.snapshot.json',
    'svc parity record --out parity/emulator.snapshot.json     # the emulator running from ./.svc',
  ]);
  verb(parity, 'check', 'Run the suite against the emulator (default) or a host and compare it with a snapshot (exit 1 on a difference)', PARITY.check, run, 'check', [
    'svc parity check --snapshot parity/sandbox.snapshot.json',
    "svc parity check --snapshot parity/sandbox.snapshot.json --ignore 'payouts/create:$.data.status' --reason 'sandbox payouts settle at once'",
    'svc parity check --snapshot parity/sandbox.snapshot.json --json > parity-report.json',
  ]);
}
