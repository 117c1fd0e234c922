import type { Response } from 'express';
import { html, raw, type Html } from '../pages/html.js';
import { htmlDocument, PAGE_CSP, sendPage } from '../pages/layout.js';
import { STYLESHEET } from '../pages/style.js';
import { DASHBOARD_STYLESHEET } from './style.js';
import { isLoopbackPeer } from '../http/local-guard.js';
import { clean } from '../../contract/redact.js';

// The dashboard's frame: the hosted pages' stylesheet and sending (pages/layout.ts) with a
// section nav, the live-stream status, and the one client script (client.ts), same origin only.

export type Section = 'events' | 'endpoints' | 'records' | 'logs' | 'wallets' | 'approvals' | 'time' | 'faults' | 'coverage';

const SECTIONS: Array<[Section, string, string]> = [
  ['events', 'Events', '/dashboard'],
  ['endpoints', 'Endpoints', '/dashboard/endpoints'],
  ['records', 'Records', '/dashboard/records'],
  ['logs', 'Logs', '/dashboard/logs'],
  ['wallets', 'Wallets & cards', '/dashboard/wallets'],
  ['approvals', 'Approvals & inboxes', '/dashboard/approvals'],
  ['time', 'Time', '/dashboard/time'],
  ['faults', 'Faults', '/dashboard/faults'],
  ['coverage', 'Coverage', '/dashboard/coverage'],
];

/** The hosted pages' policy plus this origin's script and fetch/EventSource (the control API). */
const DASHBOARD_CSP = PAGE_CSP.replace("default-src 'none';", "default-src 'none'; script-src 'self'; connect-src 'self';");

export function dashboardPage(title: string, section: Section, body: Html): Html {
  return htmlDocument(
    html`<title>${title} · svc emulator dashboard</title>
<style>${raw(STYLESHEET)}${raw(DASHBOARD_STYLESHEET)}</style>
<script src="/dashboard/app.js" defer></script>`,
    html`<header class="dash">
<strong>svc emulator</strong>
<nav class="sections" aria-label="Dashboard">${SECTIONS.map(([id, label, href]) => html`<a href="${href}"${id === section ? raw(' aria-current="page"') : ''}>${label}</a>`)}<a href="/openapi.yaml">OpenAPI</a></nav>
<span class="live-status" id="live-status" role="status">Static (updates need JavaScript)</span>
<form class="inline" method="post" action="/dashboard/logout"><button type="submit" class="small">Log out</button></form>
</header>
<main class="dash">
<h1>${title}</h1>
<div id="flash" aria-live="polite"></div>
${body}
</main>
<footer>svc emulator · local dashboard${raw(ACCESS_MARK)} · <span class="badge">TEST</span> and <span class="badge live">LIVE</span> mark each record's environment</footer>`,
  );
}

/** Where the footer says how this page was reached: known only when it is sent (sendDashboard). */
const ACCESS_MARK = '<!--access-->';

/** Sends a dashboard page, its footer stating how this request got in: from this machine, or from another host with the control token. */
export function sendDashboard(res: Response, status: number, page: Html): void {
  const access = isLoopbackPeer(res.req.socket.remoteAddress) ? 'opened from this machine (loopback, no token needed)' : 'opened from another host with the control token';
  // A last net under the views' own redaction (record-kinds.ts, events.ts): no card or key shows on any page.
  sendPage(res, status, raw(clean(page.text.replace(ACCESS_MARK, ` (${access})`))), DASHBOARD_CSP);
}
