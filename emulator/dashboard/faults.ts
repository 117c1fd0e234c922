import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { when } from './format.js';
import { PRESETS } from '../faults/presets.js';
import type { Fault } from '../faults/set.js';

// Fault injection at a glance: the faults in force (so a developer sees at once why requests
// fail), the last ones that fired, and buttons that post to the control API: clear them all,
// or apply a preset.

const target = (f: Fault) =>
  f.route ?? (f.deliveries ? `deliveries${f.deliveries.event_type ? ` of ${f.deliveries.event_type}` : ''}${f.deliveries.endpoint_id ? ` to ${f.deliveries.endpoint_id}` : ''}` : `provider ${f.provider}`);
const kind = (f: Fault) => `${f.kind}${f.status ? ` ${f.status}` : ''}${f.latency ? ` ${f.latency.min === f.latency.max ? `${f.latency.min} ms` : `${f.latency.min}–${f.latency.max} ms`}` : ''}${f.after_commit ? ' (after commit)' : ''}`;
const fires = (f: Fault) => (f.until_ms !== undefined ? `until ${new Date(f.until_ms).toISOString()}` : f.probability !== undefined ? `with p = ${f.probability}` : f.remaining !== null ? `${f.remaining} more time(s)` : 'every match');

function faultsPage(services: Services) {
  const active = services.faults.list();
  const fired = services.faults.entries().slice(-20).reverse();
  return dashboardPage(
    'Faults',
    'faults',
    html`<div id="live">
<h2>In force</h2>
${
  active.length === 0
    ? html`<p class="muted" data-faults-none>No fault is set: the emulator answers as the spec says.</p>`
    : html`<table data-faults><thead><tr><th>Fault</th><th>Target</th><th>Kind</th><th>Fires</th><th>Fired</th></tr></thead><tbody>
${active.map((f) => html`<tr><td><code>${f.id}</code></td><td>${target(f)}</td><td>${kind(f)}</td><td>${fires(f)}</td><td>${f.fired}</td></tr>`)}
</tbody></table>`
}
<h2>Last fired</h2>
${
  fired.length === 0
    ? html`<p class="muted">Nothing fired yet.</p>`
    : html`<table><thead><tr><th>When</th><th>Fault</th><th>What</th><th>On</th></tr></thead><tbody>
${fired.map((e) => html`<tr><td>${when(e.at)}</td><td><code>${e.fault_id}</code></td><td>${e.detail ?? e.kind}</td><td>${e.target}</td></tr>`)}
</tbody></table>`
}
</div>
<form class="inline" method="post" action="/_emulator/faults/clear" data-control data-done="Every fault removed."><button type="submit">Clear all faults</button></form>
<h2>Presets</h2>
<ul class="presets">
${PRESETS.map((p) => html`<li><form class="inline" method="post" action="/_emulator/faults/presets/${p.name}/apply" data-control data-done="Preset ${p.name} applied."><button type="submit">Apply ${p.name}</button></form> ${p.description}</li>`)}
</ul>
<p class="muted">Add any fault with <code>svc emulator faults add …</code> (see <code>svc emulator faults add --help</code>).</p>`,
  );
}

export function mountFaults(router: Router, services: Services): void {
  router.get('/faults', (_req: Request, res: Response) => sendDashboard(res, 200, faultsPage(services)));
}
