import { Option, type Command } from 'commander';
import { DEFAULT_TOLERANCE_SECONDS } from '../../../../contract/signature-tolerance.js';
import { intFlag } from '../../parse.js';
import { apiOptions, examples, lazy, writeOptions } from '../../options.js';
import { durationOrMs } from '../emulator/status-options.js';

export function register(webhooks: Command): void {
  const endpoints = webhooks.command('endpoints').description('Webhook endpoints: create, list, delete');
  examples(
    writeOptions(endpoints.command('create').description('Register an endpoint; its secret is shown once'))
      .requiredOption('--url <url>', 'https:// (or http://localhost with the emulator)')
      .requiredOption('--events <list>', 'comma-separated event types, e.g. payment.completed,payment.failed')
      .action(lazy(() => import('./endpoints.js'), 'create')),
    ['svc webhooks endpoints create --url https://shop.example.com/webhooks --events payment.completed,payment.failed'],
  );
  examples(apiOptions(endpoints.command('list').description('Registered endpoints (secret hints only)')).action(lazy(() => import('./endpoints.js'), 'list')), [
    'svc webhooks endpoints list',
  ]);
  examples(
    writeOptions(endpoints.command('delete').description('Revoke an endpoint')).argument('<endpoint_id>').action(lazy(() => import('./endpoints.js'), 'remove')),
    ['svc webhooks endpoints delete we_4Kj8Hg2Fd6Sa9Lp3Oi7U'],
  );

  examples(
    apiOptions(webhooks.command('listen').description('Forward events to a local URL, signed with a listen secret (emulator), or verify-and-forward (--port, live host)'))
      .option('--forward <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks (required unless --print-secret)')
      .option('--events <list>', 'only these event types (comma-separated)')
      .option('--print-secret', "print the profile's listen secret and exit (for WEBHOOK_SECRET=$(svc webhooks listen --print-secret))")
      .option('--port <n>', 'live host: run a local receiver on this port that verifies Svc-Signature with --secret', intFlag(0, 65535))
      .option('--secret <secret>', "with --port: the endpoint's signing secret")
      .option('--host <addr>', 'with --port: address to listen on', '127.0.0.1')
      .addHelpText(
        'after',
        `
Against the emulator, listen subscribes to its live stream and signs every forward with the
listen secret it prints at start (stable per profile: configure your app once). Ctrl-C stops.
Each forward is kept in a local log for \`svc webhooks replay\`.`,
      )
      .action(lazy(() => import('./listen.js'))),
    [
      'svc webhooks listen --forward http://localhost:3000/webhooks',
      'svc webhooks listen --forward http://localhost:3000/webhooks --events payment.failed --json',
      'export WEBHOOK_SECRET=$(svc webhooks listen --print-secret)',
      'svc webhooks listen --port 8787 --secret "$ENDPOINT_SECRET" --forward http://localhost:3000/webhooks',
    ],
  );
  examples(
    apiOptions(webhooks.command('tail').description("Print the emulator's live events (and delivery attempts with --attempts)"))
      .option('--events <list>', 'only these event types (comma-separated)')
      .option('--attempts', 'also print delivery attempts to registered endpoints')
      .action(lazy(() => import('./tail.js'))),
    ['svc webhooks tail', "svc webhooks tail --json | jq -c '{type, id}'"],
  );
  examples(
    webhooks
      .command('verify')
      .description('Check an Svc-Signature header offline: exit 0 valid, 1 invalid')
      .requiredOption('--secret <secret>', "the endpoint's signing secret")
      .requiredOption('--header <value>', 'the Svc-Signature header, t=…,v1=…')
      .option('--body-file <path>', 'the raw body (default: stdin)')
      .option('--tolerance <seconds>', 'allowed clock difference, either way', intFlag(0, 10 * 365 * 86_400), DEFAULT_TOLERANCE_SECONDS)
      .option('--json', 'print the verdict as JSON')
      .action(lazy(() => import('./verify.js'))),
    ["svc webhooks verify --secret \"$SECRET\" --header 't=1763700000,v1=5f…' --body-file body.json", "cat body.json | svc webhooks verify --secret \"$SECRET\" --header \"$SIG\""],
  );
  examples(
    apiOptions(webhooks.command('replay').description('Forward a delivery captured by listen again, or ask the emulator to redeliver it'))
      .argument('<delivery_id>', 'a delivery id from listen (ldv_…, or an event id), or an emulator delivery id (dlv_…)')
      .option('--forward <url>', 'send to this URL instead of the original target')
      .option('--emulator', 'ask the emulator to redeliver its delivery (same Svc-Delivery); implied by a dlv_ id')
      .action(lazy(() => import('./replay.js'))),
    ['svc webhooks replay ldv_Hb3Nq8Wz1Lx5Tc9Vk2Pr', 'svc webhooks replay dlv_9Qw2Er6Ty1Ui5Op8As3D'],
  );
  examples(
    apiOptions(
      webhooks.command('check').description("Grade your webhook receiver: send it signed, bad, duplicate and unknown deliveries and check each answer (exit 0 when nothing fails)"),
      new Option('--timeout <duration>', 'how long an answer may take (10s, 2s, or ms)').argParser(durationOrMs).default(10_000, '10s'),
    )
      .argument('<url>', "your receiver's URL, e.g. http://localhost:3000/webhooks")
      .option('--secret <secret>', "the endpoint's signing secret (what your receiver verifies with)")
      .option('--endpoint <endpoint_id>', "read the secret of this emulator endpoint (we_…) instead of --secret")
      .option('--events <list>', 'event types to send, comma-separated (default: every type)')
      .action(lazy(() => import('./check.js'))),
    ['svc webhooks check http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET"', 'svc webhooks check http://localhost:3000/webhooks --endpoint we_4Kj8Hg2Fd6Sa9Lp3Oi7U --json'],
  );
  const deliveries = webhooks.command('deliveries').description("The emulator's delivery log");
  examples(
    apiOptions(deliveries.command('list').description("An endpoint's deliveries, newest first"))
      .argument('<endpoint_id>')
      .option('--wide', 'every column (event id, environment, attempts left, next attempt, created); lines are not cut to the terminal')
      .action(lazy(() => import('../emulator/deliveries.js'), 'list')),
    ['svc webhooks deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U', 'svc webhooks deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U --wide'],
  );
}
