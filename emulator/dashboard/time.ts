import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { when } from './format.js';

// The emulator's clock: system or manual, what is waiting on it, and (manual only) an advance
// form posting to POST /_emulator/clock/advance, which runs everything that falls due, each at its time.

function timePage(services: Services) {
  const { clock } = services;
  const manual = clock.mode === 'manual';
  return dashboardPage(
    'Time',
    'time',
    html`<div id="live">
<dl>
<dt>Clock</dt><dd>${manual ? 'manual (moves only when advanced)' : 'system (follows the wall clock)'}</dd>
<dt>Emulator time</dt><dd data-clock-now="${new Date(clock.now()).toISOString()}">${when(new Date(clock.now()).toISOString())}</dd>
<dt>Timers waiting</dt><dd>${services.scheduler.pending()}</dd>
</dl>
</div>
<form class="inline" method="post" action="/_emulator/clock/advance" data-control data-done="Clock advanced.">
<label>Advance by<span class="hint">a duration: 30s, 5m, 1h30m, 1d</span><input name="by" required autocomplete="off"></label>
<button type="submit">Advance</button>
</form>
${manual ? '' : html`<p class="muted">Advancing a system clock moves it ahead of the wall clock by that much.</p>`}`,
  );
}

export function mountTime(router: Router, services: Services): void {
  router.get('/time', (_req: Request, res: Response) => sendDashboard(res, 200, timePage(services)));
}
