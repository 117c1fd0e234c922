import type { Scenario } from '../types.js';

// Webhook endpoints through the API, and — with --webhook-url — real deliveries: an endpoint
// pointing at the local receiver, two simulated payments (the spec's way to fire events in the
// sandbox), then each delivery's headers, signature and payload. The endpoint is deleted at the
// end; the URL of the endpoint-only scenario is in .invalid (RFC 2606), so no event can ever
// reach anyone, and it is deleted before anything could fire.

export const webhookEndpoints: Scenario = {
  name: 'webhook-endpoints',
  description: 'Register, list (secret_hint only), delete, delete again',
  steps: [
    { name: 'create', method: 'POST', path: '/v1/api/webhook-endpoints', body: { url: 'https://parity-${run}.invalid/svc/webhooks', events: ['payroll_run.failed'] } },
    {
      name: 'list',
      method: 'GET',
      path: '/v1/api/webhook-endpoints',
      lists: ['$.data.endpoints'],
      rules: [{ name: 'contains-new-endpoint', kind: 'contains', path: 'endpoints[*].id', value: '${create:endpoint.id}' }],
    },
    { name: 'delete', method: 'DELETE', path: '/v1/api/webhook-endpoints/${create:endpoint.id}' },
    {
      name: 'list-after-delete',
      method: 'GET',
      path: '/v1/api/webhook-endpoints',
      lists: ['$.data.endpoints'],
      rules: [{ name: 'endpoint-gone', kind: 'excludes', path: 'endpoints[*].id', value: '${create:endpoint.id}' }],
    },
    { name: 'delete-again', method: 'DELETE', path: '/v1/api/webhook-endpoints/${create:endpoint.id}' },
  ],
};

export const webhookDeliveries: Scenario = {
  name: 'webhook-deliveries',
  description: 'payment.completed and payment.failed delivered to --webhook-url: headers, signature, payload',
  needs: ['webhook'],
  steps: [
    { name: 'endpoint', method: 'POST', path: '/v1/api/webhook-endpoints', body: { url: '${webhook:url}', events: ['payment.completed', 'payment.failed'] } },
    { name: 'link-paid', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': 'parity-${run}-hook-1' }, body: { title: 'Parity hook ${run}', amount: 600, currency: 'USD', metadata: { order: 'parity-${run}' } } },
    { name: 'completed', method: 'POST', path: '/v1/api/payment-links/${link-paid:id}/simulate', body: { outcome: 'completed', method: 'card' } },
    { name: 'link-failed', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': 'parity-${run}-hook-2' }, body: { title: 'Parity hook failed ${run}', amount: 700, currency: 'USD' } },
    { name: 'failed', method: 'POST', path: '/v1/api/payment-links/${link-failed:id}/simulate', body: { outcome: 'failed', method: 'momo' } },
    { name: 'deliveries', kind: 'deliveries', events: ['payment.completed', 'payment.failed'], secret: '${endpoint:secret}' },
    { name: 'delete-endpoint', method: 'DELETE', path: '/v1/api/webhook-endpoints/${endpoint:endpoint.id}' },
  ],
};
