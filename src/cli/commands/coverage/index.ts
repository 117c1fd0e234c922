import type { Command } from 'commander';
import { define } from '../../options.js';
import { COVERAGE } from './flags.js';

export function register(coverage: Command): void {
  define(coverage, "What the requests and deliveries so far exercised of the contract, and how to exercise the rest (the emulator's count)", COVERAGE, () => import('./run.js'), 'run', [
    'svc coverage',
    'svc coverage --ignore payroll --json | jq .percent',
  ]);
}
