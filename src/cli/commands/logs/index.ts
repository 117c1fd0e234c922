import { InvalidArgumentError, type Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { apiOptions, examples, lazy } from '../../options.js';

// `svc logs …`: the emulator's request log (GET /_emulator/requests), with the Stripe CLI's
// filter names for `stripe logs tail`. Emulator only: a live host has no such log, and the
// control client refuses it before anything is sent.

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** A path prefix, as the control API takes it: refused here (exit 2) rather than as its 422. */
function pathPrefix(value: string): string {
  if (!value.startsWith('/')) throw new InvalidArgumentError(`must start with /, e.g. /v1/api/payments (got "${value}").`);
  return value;
}

/** The filters list and tail share. */
function filters(cmd: Command): Command {
  return cmd
    .option('--filter-http-method <method>', 'only this method', choiceFlag(METHODS))
    .option('--filter-request-path <prefix>', 'only paths starting with this, e.g. /v1/api/payments', pathPrefix)
    .option('--filter-request-status <status>', 'SUCCEEDED (< 400) or FAILED (>= 400)', choiceFlag(['SUCCEEDED', 'FAILED'] as const))
    .option('--filter-status-code <code>', 'only this HTTP status', intFlag(100, 599))
    .option('--filter-environment <env>', 'test or live', choiceFlag(['test', 'live'] as const))
    .option('--filter-key <name>', "only requests made with this key (its fixture name, e.g. acme-test)");
}

export function register(logs: Command): void {
  examples(
    filters(apiOptions(logs.command('list').description("The emulator's request log, newest first (bodies redacted)")))
      .option('--limit <n>', 'entries (1 to 100)', intFlag(1, 100), 20)
      .option('--since <time>', 'entries at or after this ISO time')
      .action(lazy(() => import('./run.js'), 'list')),
    ['svc logs list --filter-request-status FAILED', 'svc logs list --filter-request-path /v1/api/charges --json'],
  );
  examples(
    apiOptions(logs.command('get').description('One request: both bodies, the key it used (last 4), what it touched'))
      .argument('<id>', 'an entry id (req_…)')
      .option('--curl', 'print the request as a curl command (the key as $SVC_API_KEY)')
      .action(lazy(() => import('./run.js'), 'get')),
    ['svc logs get req_… --curl'],
  );
  examples(
    filters(apiOptions(logs.command('tail').description('Print requests as the emulator answers them (Ctrl-C stops)'))).action(lazy(() => import('./run.js'), 'tail')),
    ['svc logs tail --filter-request-status FAILED', 'svc logs tail --json'],
  );
}
