import type { Command } from 'commander';
import { choiceFlag } from '../../parse.js';
import { commanderParser, define } from '../../options.js';

export function register(completion: Command): void {
  define(completion, 'Print a shell completion script', {}, () => import('./run.js'), 'run', [
    'source <(svc completion bash)',
    'svc completion zsh > "${fpath[1]}/_svc"',
  ]).argument('<shell>', 'bash or zsh', commanderParser(choiceFlag(['bash', 'zsh'] as const)));
}
