import type { Command } from 'commander';
import { verb } from '../../options.js';
import { SCENARIO } from './flags.js';

// `svc scenario run | check | list`: scenario files (docs/scenarios.md) played against the
// emulator or a live host with their expectations, checked without running, and the shipped ones.

export function register(scenario: Command): void {
  const run = () => import('./run.js');
  verb(scenario, 'run', 'Run scenario files (or folders of them, or shipped scenarios by name) and check their expectations (exit 1 when one fails)', SCENARIO.run, run, 'run', [
    'svc scenario run link-paid',
    'svc scenario run scenarios/ --junit scenario-results.xml',
    'svc scenario run checkout.yaml --env AMOUNT=500 --set link.currency=LRD --only link --only pay',
    'svc scenario run checkout.yaml --base-url https://pay.example.com --api-key "$LIVE_KEY" --live',
  ]).argument('<file...>', 'scenario files (.yaml, .yml, .json), folders of them, or shipped scenario names');
  verb(scenario, 'check', 'Check scenario files without running them (exit 2 with file:line:column for each problem)', SCENARIO.check, run, 'check', ['svc scenario check checkout.yaml']).argument('<file...>', 'scenario files or folders');
  verb(scenario, 'list', 'List the shipped scenarios (one per flow of the spec, and the triggers)', SCENARIO.list, run, 'list', ['svc scenario list', 'svc scenario run payroll-pin']);
}
