import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { MERCHANTS } from '../resources/merchants/records.js';
import { walletView } from '../resources/wallets/control.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { envBadge, money, when } from './format.js';
import { recordTable } from './records.js';
import { KINDS } from './record-kinds.js';

// Wallets and cards: every merchant's wallets with their balance and newest ledger entries
// (walletView, the function behind GET /_emulator/wallets), then gift-card wallets and fleet cards.

const ENTRIES_SHOWN = 10;

function walletsPage(services: Services, req: Request) {
  const merchants = [...services.store.all(MERCHANTS)];
  const views = merchants.map((m) => ({ merchant: m, view: walletView(services, m.id, undefined, ENTRIES_SHOWN) })).filter((x) => x.view.wallets.length > 0);
  const cards = KINDS.filter((k) => k.section === 'wallets');
  return dashboardPage(
    'Wallets and cards',
    'wallets',
    html`<div id="live">
<h2>Merchant wallets</h2>
${views.length === 0 ? html`<p class="muted">No wallet has money yet.</p>` : ''}
${views.map(({ merchant, view }) =>
  view.wallets.map(
    (w) => html`<section aria-label="Wallet ${w.id}">
<h3>${merchant.name} · ${w.currency} ${envBadge(w.environment)} <span class="amount-inline">${money(w.balance, w.currency)}</span></h3>
<details><summary>Newest ${Math.min(ENTRIES_SHOWN, w.entry_count)} of ${w.entry_count} ledger entries</summary>
<div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">Reason</th><th scope="col">Ref</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${w.entries.map((e) => html`<tr><td>${when(e.created_at)}</td><td>${e.reason.replace(/_/g, ' ')}</td><td><code>${e.ref ?? ''}</code></td><td class="num">${money(e.amount, w.currency)}</td></tr>`)}</tbody></table></div>
</details></section>`,
  ),
)}
${cards.map((k) => html`<h2>${k.label}</h2>${recordTable(services, k, req.query, '/dashboard/wallets')}`)}
</div>`,
  );
}

export function mountWallets(router: Router, services: Services): void {
  router.get('/wallets', (req: Request, res: Response) => sendDashboard(res, 200, walletsPage(services, req)));
}
