import { html, type Html } from '../pages/html.js';
import { formatMinor } from '../pages/money.js';

// How the dashboard writes values: times as <time> (the client script shows them in local
// time; the title keeps UTC), amounts in their currency's own format, TEST/LIVE and status chips.

export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** Minor units in the currency's format; a bare number when the currency is unknown. */
export function money(minor: unknown, currency: unknown): string {
  if (typeof minor !== 'number') return '—';
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return String(minor);
  return formatMinor(minor, currency);
}

export const envBadge = (environment: string) => html`<span class="badge ${environment}">${environment === 'live' ? 'LIVE' : 'TEST'}</span>`;

export const chip = (status: string) => html`<span class="chip s-${status}">${status.replace(/_/g, ' ')}</span>`;

export const PAGE_SIZE = 25;

/** One page of `rows` (1-based) and the number of pages. */
export function paginate<T>(rows: readonly T[], page: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const p = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE), page: p, pages };
}

/** Previous/next links that keep the page's other query parameters. */
export function pager(path: string, query: Record<string, string | undefined>, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const link = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v) q.set(k, v);
    q.set('page', String(p));
    return `${path}?${q}`;
  };
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">← Newer</a>` : ''}<span>Page ${page} of ${pages}</span>${
    page < pages ? html`<a href="${link(page + 1)}" rel="next">Older →</a>` : ''
  }</nav>`;
}

/** ?page=N as a number (1 when absent or not a number). */
export const pageParam = (value: unknown) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1);

/** A query parameter as a string, or undefined. */
export const param = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export const newestFirst = <T extends { created_at: string }>(rows: Iterable<T>): T[] => [...rows].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
