import type { z } from 'zod';
import type { CoverageReport } from '../../contract/control/coverage.js';
import { COVERAGE_KINDS } from '../../contract/coverage.js';
import type { Services } from '../services.js';
import { html, raw, type Html } from '../pages/html.js';
import { STYLESHEET } from '../pages/style.js';
import { DASHBOARD_STYLESHEET } from './style.js';
import { dashboardPage } from './layout.js';
import { htmlDocument } from '../pages/layout.js';
import { when } from './format.js';

// Integration coverage as a page: the dashboard's Coverage section, and the self-contained
// coverage.html `svc emulator exec --coverage` writes (the same body, its styles inline, no
// script and a policy that lets it load nothing: it opens from disk, offline).

type Report = z.input<typeof CoverageReport>;
type Item = Report['items'][number];

const pct = (p: number) => `${p.toFixed(1)}%`;

const state = (i: Item) =>
  i.ignored ? html`<span class="chip">ignored</span>` : i.covered ? html`<span class="chip s-succeeded">covered</span>` : html`<span class="chip s-failed">never</span>`;

function body(r: Report): Html {
  return html`<p data-coverage-total><strong>${pct(r.percent)}</strong> covered: ${r.covered} of ${r.total} items${r.ignored > 0 ? `, ${r.ignored} ignored (counted apart)` : ''}. Counted since ${when(r.since)}.</p>
<div class="scroll"><table data-coverage-kinds><thead><tr><th>Kind</th><th>Covered</th><th>Percent</th><th>Ignored</th></tr></thead><tbody>
${r.kinds.map((k) => html`<tr><td>${k.kind}</td><td>${k.covered} of ${k.total}</td><td>${pct(k.percent)}</td><td>${k.ignored}</td></tr>`)}
</tbody></table></div>
<h2>Never exercised, most important first</h2>
${
  r.uncovered_top.length === 0
    ? html`<p class="muted">Everything not ignored was exercised.</p>`
    : html`<div class="scroll"><table data-coverage-top class="stack"><thead><tr><th>Kind</th><th>Item</th><th>How to exercise it</th></tr></thead><tbody>
${r.uncovered_top.map((i) => html`<tr><td>${i.kind}</td><td><code>${i.name}</code></td><td>${i.how}</td></tr>`)}
</tbody></table></div>`
}
<h2>Every item</h2>
${COVERAGE_KINDS.map((kind) => {
  const items = r.items.filter((i) => i.kind === kind);
  const k = r.kinds.find((x) => x.kind === kind)!;
  return html`<details data-kind="${kind}"><summary>${kind}: ${k.covered} of ${k.total} (${pct(k.percent)})</summary><div class="scroll"><table class="stack"><thead><tr><th>Item</th><th></th><th>Count</th><th>How to exercise it</th></tr></thead><tbody>
${items.map((i) => html`<tr><td><code>${i.name}</code></td><td>${state(i)}</td><td>${i.count}</td><td>${i.how}</td></tr>`)}
</tbody></table></div></details>`;
})}`;
}

/** coverage.html: the report as one file that needs nothing else (no network, no script). */
export function coverageHtml(r: Report): string {
  return htmlDocument(
    html`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Integration coverage · svc emulator</title>
<style>${raw(STYLESHEET)}${raw(DASHBOARD_STYLESHEET)}</style>`,
    html`<main class="dash">
<h1>Integration coverage</h1>
${body(r)}
</main>
<footer>svc emulator exec --coverage · what the requests and deliveries of this run exercised of the contract</footer>`,
  ).text;
}

/** The dashboard's Coverage page (router.ts serves it). */
export function coveragePage(services: Services): Html {
  return dashboardPage(
    'Coverage',
    'coverage',
    html`<form class="inline" method="post" action="/_emulator/coverage/reset" data-control data-done="A new count has begun."><button type="submit">Start a new count</button></form>
<div id="live">${body(services.coverage.report())}</div>
<p class="muted">What the requests and deliveries exercised of the contract since the count began (a reset, a restore or a restart keeps counting). <code>svc coverage</code> prints it; <code>svc emulator exec --coverage</code> writes it for a CI run.</p>`,
  );
}
