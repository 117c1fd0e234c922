import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { DELIVERIES } from '../webhooks/records.js';
import { toPublicEndpoint, WEBHOOK_ENDPOINTS } from '../resources/webhook-endpoints/domain.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { envBadge, newestFirst, when } from './format.js';

// Webhook endpoints: URL, events, secret hint (the public view: never the secret), and the
// success rate of their recent finished deliveries.

/** How many of an endpoint's newest deliveries the success rate looks at. */
const RECENT_DELIVERIES = 50;

function successRate(services: Pick<Services, 'store'>, endpointId: string): { succeeded: number; finished: number } {
  const all = services.store.byIndex(DELIVERIES, 'by_endpoint', endpointId);
  let succeeded = 0;
  let finished = 0;
  // Index order is creation order: walk back from the newest.
  for (let i = all.length - 1; i >= 0 && all.length - i <= RECENT_DELIVERIES; i--) {
    const d = all[i];
    if (d.attempts.length === 0) continue;
    finished++;
    if (d.status === 'succeeded') succeeded++;
  }
  return { succeeded, finished };
}

function endpointsPage(services: Services) {
  const endpoints = newestFirst(services.store.all(WEBHOOK_ENDPOINTS));
  return dashboardPage(
    'Webhook endpoints',
    'endpoints',
    html`<div id="live"><div class="scroll"><table class="stack" aria-label="Endpoints">
<thead><tr><th scope="col">URL</th><th scope="col">Env</th><th scope="col">Merchant</th><th scope="col">Events</th><th scope="col">Secret</th><th scope="col" class="num">Recent success</th><th scope="col">Created</th></tr></thead>
<tbody>${endpoints.map((e) => {
      const pub = toPublicEndpoint(e);
      const rate = successRate(services, e.id);
      return html`<tr><td><a href="/dashboard?endpoint=${e.id}">${pub.url}</a>${e.deleted_at ? html` <span class="chip s-revoked">deleted</span>` : ''}</td><td>${envBadge(pub.environment)}</td><td><code>${e.merchant_id}</code></td><td>${pub.events.join(', ')}</td><td><code>…${pub.secret_hint}</code></td><td class="num">${
        rate.finished === 0 ? html`<span class="muted">no attempts yet</span>` : `${Math.round((100 * rate.succeeded) / rate.finished)}% (${rate.succeeded}/${rate.finished})`
      }</td><td>${when(pub.created_at)}</td></tr>`;
    })}</tbody></table></div>
${endpoints.length === 0 ? html`<p class="muted">No endpoints yet: register one with POST /v1/api/webhook-endpoints or <code>svc webhooks endpoints create</code>.</p>` : ''}
<p class="muted">Recent success: the share of the newest ${RECENT_DELIVERIES} deliveries with at least one attempt that ended succeeded.</p></div>`,
  );
}

export function mountEndpoints(router: Router, services: Services): void {
  router.get('/endpoints', (_req: Request, res: Response) => sendDashboard(res, 200, endpointsPage(services)));
}
