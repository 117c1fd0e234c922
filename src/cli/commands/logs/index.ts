import type { Command } from 'commander';
import { verb } from '../../options.js';
import { LOGS } from './flags.js';

// `svc logs …`: the emulator's request log (GET /_emulator/requests). Emulator only: a live
// host has no such log, and the control client refuses it before anything is sent.

export function register(logs: Command): void {
  const run = () => import('./run.js');
  verb(logs, 'list', "The emulator's request log, newest first (bodies redacted)", LOGS.list, run, 'list', [
    'svc logs list --filter-request-status FAILED',
    'svc logs list --filter-request-path /v1/api/charges --json',
  ]);
  verb(logs, 'get', 'One request: both bodies, the key it used (last 4), what it touched', LOGS.get, run, 'get', ['svc logs get req_… --curl']).argument('<id>', 'an entry id (req_…)');
  verb(logs, 'tail', 'Print requests as the emulator answers them (Ctrl-C stops)', LOGS.tail, run, 'tail', ['svc logs tail --filter-request-status FAILED', 'svc logs tail --json']);
}
