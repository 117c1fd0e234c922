import type { Command } from 'commander';
import type { FlagsOf } from '../../flags.js';
import { verb } from '../../options.js';
import { EXEC, START } from './flags.js';

export type StartOptions = FlagsOf<typeof START>;
export type ExecOptions = FlagsOf<typeof EXEC>;

export function register(emulator: Command): void {
  verb(
    emulator,
    'start',
    'Run the local emulator of the payments service',
    START,
    () => import('./start-run.js'),
    'run',
    [
      'svc emulator start',
      'svc emulator start --port 0 --data-dir /tmp/svc --json',
      'svc emulator start --clock manual --rate-limit off',
      'svc emulator start --host 0.0.0.0 --allow-host svc --public-url http://localhost:4242',
      'SVC_CLOCK=manual SVC_RATE_LIMIT=off svc emulator start    # every option has its variable; a flag wins',
    ],
    `
The --json ready line:
  {"base_url":"http://127.0.0.1:4242","checkout_url":"http://127.0.0.1:4242/checkout",
   "dashboard_url":"http://127.0.0.1:4242/dashboard","public_url":null,"data_dir":"/abs/.svc",
   "keys":[{"name","key","environment","scopes","merchant_id","revoked"}],"control_token":null,
   "sources":{"port":"default","clock":"env","rate_limit":"flag",…}}
  control_token: the token made up when --host is not loopback (other hosts send it as
  Svc-Control-Token); null when none was made up. sources: where each option's value came
  from: flag, env (its SVC_* variable) or default.`,
  );
  verb(
    emulator,
    'exec',
    "Start an emulator, run a command against it, stop it, and exit with the command's exit code",
    EXEC,
    () => import('./exec-run.js'),
    'run',
    [
      'svc emulator exec -- npm test',
      'svc emulator exec --clock manual --rate-limit off -- node --test',
      'svc emulator exec --export-on-exit ./svc-world -- npx vitest run',
    ],
    `
The command gets SVC_BASE_URL, SVC_API_KEY (a test key with every scope), SVC_LIVE_API_KEY,
SVC_CHECKOUT_URL and SVC_DATA_DIR in its environment; svc's own commands pick them up.
It runs in a process group of its own: SIGINT, SIGTERM and SIGHUP reach every process in it
(a second one sends SIGKILL), and the emulator stops once none of them runs. What still runs
after the command exited gets SIGTERM (after --stop-timeout if exec passed a signal on, else
after 1 s), then SIGKILL --stop-timeout later.`,
  ).argument('<command...>', 'the command and its arguments, after --');
}
