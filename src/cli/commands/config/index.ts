import type { Command } from 'commander';
import { apiOptions, examples, lazy } from '../../options.js';

export function register(config: Command): void {
  const profileOpt = (cmd: Command) => cmd.option('--profile <name>', 'profile to change (default: $SVC_PROFILE or the current profile)');
  examples(
    profileOpt(config.command('set').description('Set api_key or base_url in a profile'))
      .argument('<field>', 'api_key or base_url')
      .argument('<value>')
      .action(lazy(() => import('./run.js'), 'set')),
    ['svc config set base_url https://pay.example.com --profile live', 'svc config set api_key svc_test_… --profile default'],
  );
  examples(
    profileOpt(config.command('get').description('Print one field of a profile (keys masked)'))
      .argument('<field>', 'api_key or base_url')
      .action(lazy(() => import('./run.js'), 'get')),
    ['svc config get base_url'],
  );
  examples(
    config
      .command('list')
      .description('Every profile, keys masked')
      .option('--json', 'print the profiles as JSON (keys masked)')
      .action(lazy(() => import('./run.js'), 'list')),
    ['svc config list'],
  );
  examples(config.command('use').description('Make a profile the current one').argument('<profile>').action(lazy(() => import('./run.js'), 'use')), [
    'svc config use live',
  ]);
  examples(
    apiOptions(config.command('show').description('The base URL and key commands would use here, and where each comes from')).action(lazy(() => import('./run.js'), 'show')),
    ['svc config show', 'SVC_API_KEY=svc_test_… svc config show --json'],
  );
  examples(config.command('path').description('Print where the config file lives').action(lazy(() => import('./run.js'), 'path')), ['svc config path']);
}
