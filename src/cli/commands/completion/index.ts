import type { Command } from 'commander';
import { choiceFlag } from '../../parse.js';
import { examples, lazy } from '../../options.js';

export function register(completion: Command): void {
  examples(
    completion
      .description('Print a shell completion script')
      .argument('<shell>', 'bash or zsh', choiceFlag(['bash', 'zsh'] as const))
      .action(lazy(() => import('./run.js'))),
    ['source <(svc completion bash)', 'svc completion zsh > "${fpath[1]}/_svc"'],
  );
}
