import type { Command } from 'commander';
import { API_FLAGS } from '../../flags.js';
import { define } from '../../options.js';

export function register(login: Command): void {
  define(login, 'Check an API key with a read call, then save it (and --base-url) in a profile', API_FLAGS, () => import('./run.js'), 'run', [
    'svc login --api-key svc_test_… --base-url http://127.0.0.1:4242',
    'svc login --api-key svc_live_… --base-url https://pay.example.com --profile live',
    'pass show svc/live-key | svc login --api-key - --profile live   # the key from stdin',
  ]);
}
