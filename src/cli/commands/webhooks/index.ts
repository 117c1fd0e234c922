import type { Command } from 'commander';
import { verb } from '../../options.js';
import { WEBHOOKS } from './flags.js';

export function register(webhooks: Command): void {
  const endpoints = webhooks.command('endpoints').description('Webhook endpoints: create, list, delete');
  const run = () => import('./endpoints.js');
  verb(endpoints, 'create', 'Register an endpoint; its secret is shown once', WEBHOOKS.endpointsCreate, run, 'create', [
    'svc webhooks endpoints create --url https://shop.example.com/webhooks --events payment.completed,payment.failed',
  ]);
  verb(endpoints, 'list', 'Registered endpoints (secret hints only)', WEBHOOKS.endpointsList, run, 'list', ['svc webhooks endpoints list']);
  verb(endpoints, 'delete', 'Revoke an endpoint', WEBHOOKS.endpointsDelete, run, 'remove', ['svc webhooks endpoints delete we_4Kj8Hg2Fd6Sa9Lp3Oi7U']).argument('<endpoint_id>');

  verb(
    webhooks,
    'listen',
    'Forward events to a local URL, signed with a listen secret (emulator), or verify-and-forward (--port, live host)',
    WEBHOOKS.listen,
    () => import('./listen.js'),
    'run',
    [
      'svc webhooks listen --forward http://localhost:3000/webhooks',
      'svc webhooks listen --forward http://localhost:3000/webhooks --events payment.failed --json',
      'export WEBHOOK_SECRET=$(svc webhooks listen --print-secret)',
      'svc webhooks listen --port 8787 --secret "$ENDPOINT_SECRET" --forward http://localhost:3000/webhooks',
    ],
    `
Against the emulator, listen subscribes to its live stream and signs every forward with the
listen secret it prints at start (stable per profile: configure your app once). Ctrl-C stops.
Each forward is kept in a local log for \`svc webhooks replay\`.`,
  );
  verb(webhooks, 'tail', "Print the emulator's live events (and delivery attempts with --attempts)", WEBHOOKS.tail, () => import('./tail.js'), 'run', [
    'svc webhooks tail',
    "svc webhooks tail --json | jq -c '{type, id}'",
  ]);
  verb(webhooks, 'verify', 'Check an Svc-Signature header offline: exit 0 valid, 1 invalid', WEBHOOKS.verify, () => import('./verify.js'), 'run', [
    "svc webhooks verify --secret \"$SECRET\" --header 't=1763700000,v1=5f…' --body-file body.json",
    'cat body.json | svc webhooks verify --secret "$SECRET" --header "$SIG"',
  ]);
  verb(webhooks, 'replay', 'Forward a delivery captured by listen again, or ask the emulator to redeliver it', WEBHOOKS.replay, () => import('./replay.js'), 'run', [
    'svc webhooks replay ldv_Hb3Nq8Wz1Lx5Tc9Vk2Pr',
    'svc webhooks replay dlv_9Qw2Er6Ty1Ui5Op8As3D',
  ]).argument('<delivery_id>', 'a delivery id from listen (ldv_…, or an event id), or an emulator delivery id (dlv_…)');
  verb(
    webhooks,
    'check',
    'Grade your webhook receiver: send it signed, bad, duplicate and unknown deliveries and check each answer (exit 0 when nothing fails)',
    WEBHOOKS.check,
    () => import('./check.js'),
    'run',
    ['svc webhooks check http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET"', 'svc webhooks check http://localhost:3000/webhooks --endpoint we_4Kj8Hg2Fd6Sa9Lp3Oi7U --json'],
  ).argument('<url>', "your receiver's URL, e.g. http://localhost:3000/webhooks");
  const deliveries = webhooks.command('deliveries').description("The emulator's delivery log");
  verb(deliveries, 'list', "An endpoint's deliveries, newest first", WEBHOOKS.deliveriesList, () => import('../emulator/deliveries.js'), 'list', [
    'svc webhooks deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U',
    'svc webhooks deliveries list we_4Kj8Hg2Fd6Sa9Lp3Oi7U --wide',
  ]).argument('<endpoint_id>');
}
