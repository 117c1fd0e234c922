// The dashboard's one client script, served at /dashboard/app.js (same origin: the page's CSP
// allows no other). Plain browser JavaScript, so there is no build step beyond tsc. It does
// three things:
// - forms marked data-control are sent to the control API (/_emulator/...) as JSON with fetch:
//   the dashboard has no actions of its own;
// - the region #live is re-rendered from the server whenever the emulator's stream (the
//   dashboard feed, /dashboard/stream) reports an event or a delivery attempt: no reload;
// - <time> elements are shown in local time, with UTC in the title.
export const CLIENT_SCRIPT = `'use strict';
(() => {
  const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  function localTimes(root) {
    for (const t of root.querySelectorAll('time[datetime]')) {
      const d = new Date(t.getAttribute('datetime'));
      if (Number.isNaN(d.getTime())) continue;
      t.textContent = dateFormat.format(d);
      t.title = 'UTC ' + d.toISOString();
    }
  }

  let refreshing = null;
  let again = false;
  // Re-renders #live from the same URL; skipped while someone types inside it.
  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        const region = document.getElementById('live');
        if (!region) return;
        const active = document.activeElement;
        if (active && region.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && active.value !== '') return;
        const res = await fetch(location.href, { headers: { accept: 'text/html' } });
        if (!res.ok) return;
        const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
        const fresh = doc.getElementById('live');
        if (!fresh) return;
        region.innerHTML = fresh.innerHTML;
        localTimes(region);
        // Under a burst of deliveries, at most a few renders a second rather than one per message.
        if (again) await new Promise((ok) => setTimeout(ok, 250));
      } while (again);
    })().finally(() => { refreshing = null; });
    return refreshing;
  }

  function flash(kind, text) {
    const box = document.getElementById('flash');
    if (!box) return;
    const p = document.createElement('p');
    p.className = 'alert ' + kind;
    p.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    p.textContent = text;
    box.replaceChildren(p);
  }

  document.addEventListener('submit', async (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-control')) return;
    e.preventDefault();
    const body = {};
    for (const [name, value] of new FormData(form)) {
      if (value === '') continue;
      const field = form.elements.namedItem(name);
      body[name] = field && field.dataset && field.dataset.type === 'int' ? Number(value) : value;
    }
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    try {
      const res = await fetch(form.getAttribute('action'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = await res.json().catch(() => null);
      if (res.ok && json && json.success) {
        flash('ok', form.dataset.done || 'Done.');
        form.reset();
        await refresh();
      } else {
        flash('error', (json && json.error && json.error.message) || 'The emulator answered HTTP ' + res.status + '.');
      }
    } catch (err) {
      flash('error', 'The emulator did not answer: ' + err.message);
    } finally {
      if (button && button.isConnected) button.disabled = false;
    }
  });

  // "Copy as curl" and the like: the text of the element a button names, to the clipboard.
  document.addEventListener('click', async (e) => {
    const button = e.target instanceof Element ? e.target.closest('[data-copy]') : null;
    if (!button) return;
    const source = document.querySelector(button.getAttribute('data-copy'));
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent);
      flash('ok', 'Copied.');
    } catch (err) {
      flash('error', 'Could not copy: ' + err.message);
    }
  });

  localTimes(document);
  const status = document.getElementById('live-status');
  if (document.getElementById('live') && 'EventSource' in window) {
    const stream = new EventSource('/dashboard/stream');
    stream.onopen = () => { if (status) status.textContent = 'Live: updates as events arrive'; };
    stream.onerror = () => { if (status) status.textContent = 'Reconnecting to the emulator…'; };
    stream.addEventListener('event', () => refresh());
    stream.addEventListener('attempt', () => refresh());
    stream.addEventListener('request', () => refresh());
  } else if (status) {
    status.textContent = '';
  }
})();
`;
