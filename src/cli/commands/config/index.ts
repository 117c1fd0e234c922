import type { Command } from 'commander';
import { verb } from '../../options.js';
import { CONFIG } from './flags.js';

export function register(config: Command): void {
  const run = () => import('./run.js');
  verb(config, 'set', 'Set api_key or base_url in a profile', CONFIG.set, run, 'set', [
    'svc config set base_url https://pay.example.com --profile live',
    'svc config set api_key svc_test_… --profile default',
  ])
    .argument('<field>', 'api_key or base_url')
    .argument('<value>');
  verb(config, 'get', 'Print one field of a profile (keys masked)', CONFIG.get, run, 'get', ['svc config get base_url']).argument('<field>', 'api_key or base_url');
  verb(config, 'list', 'Every profile, keys masked', CONFIG.list, run, 'list', ['svc config list']);
  verb(config, 'use', 'Make a profile the current one', CONFIG.use, run, 'use', ['svc config use live']).argument('<profile>');
  verb(config, 'show', 'The base URL and key commands would use here, and where each comes from', CONFIG.show, run, 'show', [
    'svc config show',
    'SVC_API_KEY=svc_test_… svc config show --json',
  ]);
  verb(config, 'path', 'Print where the config file lives', CONFIG.path, run, 'path', ['svc config path']);
}
