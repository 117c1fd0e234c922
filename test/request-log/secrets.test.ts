import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { cliHome, startCli } from '../cli/cli.js';
import { runBinary } from '../cli/run-binary.js';
import { startEmulator as startTesting } from '../../src/testing/index.js';
import { sendProbes, type Secret } from './probes.js';

// Issues 37 and 46: nothing secret reaches any byte the emulator writes or shows. The battery of
// probes.ts (over 200 secrets, each in its own place) goes to three emulators, and every byte of
// every surface is searched for every secret, expecting none:
// - `svc emulator start` (the binary, human output, request lines on: not --quiet), configured as
//   the Dockerfile does (SVC_HOST=0.0.0.0, SVC_DATA_DIR, SVC_CONTROL_TOKEN from the environment),
//   so its stdout and stderr are what `docker logs` shows; then every request-log surface (the
//   control API's list and each entry, `svc logs list` and `svc logs get` in human, --json and
//   --curl forms, the dashboard's Logs pages, the log in GET /_emulator/snapshot, its files),
//   every dashboard page (events, endpoints, each record kind and each record, wallets,
//   approvals, time, faults) and the dashboard's live feed (GET /dashboard/stream, open while the
//   battery runs: the event of each paid link carries its metadata);
// - `svc emulator exec`, whose command is the battery itself: exec's stdout and stderr (the fault
//   and SMS lines an emulator under exec writes);
// - the testing API's in-process emulator: its requests().
// The OTP sent for real is shown on purpose in the OTP inbox (the dashboard's Approvals page);
// nowhere else.

const PROBES = fileURLToPath(new URL('./probes.js', import.meta.url));

/** The digits of a text as a reader would take them: percent-encoding and full width read, separators between digits gone. */
function digitsRead(text: string): string {
  const decoded = text.replace(/(%[0-9a-f]{2})+/gi, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
  return decoded.normalize('NFKC').replace(/(?<=\d)[\s\-.\u00a0,_/+:|\u200b-\u200d\u2060\ufeff]{1,8}(?=\d)/g, '');
}

/** Where a secret shows in `text`: its own text (or percent-encoded), its digits standing alone, a card's first 12 digits in any spelling. */
function leaks(secrets: Secret[], text: string, { inbox = false } = {}): string[] {
  const readable = digitsRead(text);
  return secrets
    .filter((s) => !(inbox && s.inbox))
    .filter((s) => {
      if (s.card) return readable.includes(s.value.slice(0, 12));
      if (/^\d+$/.test(s.value)) return new RegExp(`(?<!\\d)${s.value}(?!\\d)`).test(readable);
      return text.includes(s.value) || text.includes(encodeURIComponent(s.value));
    })
    .map((s) => `${s.what}: ${s.value}`);
}

function assertClean(secrets: Secret[], surface: string, text: string, opts?: { inbox?: boolean }): void {
  const found = leaks(secrets, text, opts);
  assert.deepEqual(found, [], `${surface} holds ${found.length} secret(s):\n${found.join('\n')}\n--- ${surface} ---\n${text.slice(0, 3000)}`);
}

/** The dashboard's live feed, open until closed: every byte it sent. */
async function openFeed(base: string): Promise<{ text(): string; until(marker: string): Promise<void>; close(): void }> {
  let text = '';
  let waiter: { marker: string; ok(): void } | undefined;
  const res = await new Promise<IncomingMessage>((ok, fail) => httpRequest(new URL('/dashboard/stream', base), ok).on('error', fail).end());
  assert.equal(res.statusCode, 200);
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    if (waiter && text.includes(waiter.marker)) waiter.ok();
  });
  return {
    text: () => text,
    until: (marker) => new Promise<void>((ok) => (text.includes(marker) ? ok() : (waiter = { marker, ok }))),
    close: () => res.destroy(),
  };
}

/** Every entry of the request log, newest first, through the control API's pages; and the pages' text. */
async function allEntries(base: string): Promise<{ entries: Array<{ id: string; path: string }>; pages: string }> {
  const entries: Array<{ id: string; path: string }> = [];
  let pages = '';
  for (let before: string | null = null; ; ) {
    const res = await rawRequest(base, 'GET', `/_emulator/requests?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    assert.equal(res.status, 200, res.text);
    pages += res.text;
    entries.push(...res.json.data.requests);
    before = res.json.data.next_before;
    if (before === null || res.json.data.requests.length < 100) return { entries, pages };
  }
}

test('svc emulator start, set up as the Dockerfile does: no probe reaches its console, the request log, the dashboard or the files', { timeout: 600_000 }, async () => {
  const dataDir = tempDir('svc-secrets-');
  // A token of the user's choosing, without the svc_ctl_ prefix: only the emulator's list of what it holds finds it.
  const controlToken = `team-token_${randomBytes(24).toString('base64url')}`;
  const run = startCli(['emulator', 'start', '--port', '0', '--rate-limit', 'off', '--clock', 'manual'], {
    env: { SVC_HOST: '0.0.0.0', SVC_DATA_DIR: dataDir, SVC_CONTROL_TOKEN: controlToken },
  });
  let stopped = false;
  try {
    await run.waitFor(/Stop: Ctrl-C/);
    const base: string = JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')).local_url;
    const feed = await openFeed(base);
    const secrets = await sendProbes({ base, controlToken });
    assert.ok(secrets.length >= 200, `${secrets.length} probes`);
    const check = (surface: string, text: string) => assertClean(secrets, surface, text);
    const get = async (path: string, status = 200) => {
      const res = await rawRequest(base, 'GET', path);
      assert.equal(res.status, status, `${path}: ${res.text.slice(0, 300)}`);
      return res.text;
    };

    // The request log through the control API: every page, every entry.
    const { entries, pages } = await allEntries(base);
    assert.ok(entries.length >= 200, `${entries.length} entries`);
    check('GET /_emulator/requests (every page)', pages);
    // Not vacuous: the entries are there, their secrets taken out.
    assert.ok(entries.some((e) => /^\/v1\/api\/payments\?api_key=\[redacted\]$/.test(e.path)), 'the api_key query is logged, redacted');
    assert.ok(entries.some((e) => /^\/v1\/api\/payments\?note=[^&]*\*{8}/.test(e.path)), 'a card in the query is logged, masked');

    const home = cliHome();
    const svc = (args: string[]) => home.run([...args, '--base-url', base]);
    for (const filter of [[], ['--filter-request-path', '/v1/api/payments'], ['--filter-request-path', '/v1/api/payment-links'], ['--filter-request-status', 'FAILED']]) {
      for (const form of [[], ['--json']]) {
        const args = ['logs', 'list', '--limit', '100', ...filter, ...form];
        const r = await svc(args);
        assert.equal(r.code, 0, r.stderr);
        check(`svc ${args.join(' ')}`, r.stdout + r.stderr);
      }
    }
    let perEntry = '';
    for (const e of entries) {
      perEntry += await get(`/_emulator/requests/${e.id}`);
      perEntry += await get(`/dashboard/logs/${e.id}`);
      for (const args of [['logs', 'get', e.id], ['logs', 'get', e.id, '--json'], ['logs', 'get', e.id, '--curl']]) {
        const r = await svc(args);
        assert.equal(r.code, 0, r.stderr);
        perEntry += r.stdout + r.stderr;
      }
    }
    check('each entry: GET /_emulator/requests/<id>, the dashboard page, svc logs get (human, --json, --curl)', perEntry);
    const snapshot = JSON.parse(await get('/_emulator/snapshot')).data;
    assert.ok(snapshot.collections.request_log.length >= 200);
    check('the request log in GET /_emulator/snapshot', JSON.stringify(snapshot.collections.request_log));

    // The dashboard: every page, each record kind and each record.
    let dashboard = '';
    for (const path of ['', '/endpoints', '/records', '/wallets', '/approvals', '/time', '/faults', '/logs', '/logs?status=failed']) dashboard += await get(`/dashboard${path}`);
    const kinds = [...new Set([...dashboard.matchAll(/href="\/dashboard\/records\?kind=([\w-]+)"/g)].map((m) => m[1]!))];
    assert.ok(kinds.includes('payment-links'), kinds.join(' '));
    let records = 0;
    for (const kind of kinds) {
      for (let page = 1; ; page++) {
        const list = await get(`/dashboard/records?kind=${kind}&page=${page}`);
        dashboard += list;
        for (const [, href] of list.matchAll(/href="(\/dashboard\/records\/[\w-]+\/[^"?]+)"/g)) {
          dashboard += await get(href!);
          records++;
        }
        if (!list.includes(`page=${page + 1}`)) break;
      }
    }
    assert.ok(records >= 50, `${records} record pages`);
    assert.match(dashboard, /\[redacted\]/, 'the stored metadata is on the dashboard, redacted');
    assertClean(secrets, 'the dashboard', dashboard, { inbox: true });

    // The dashboard's live feed: every event and attempt of the battery. A last paid link marks
    // the end (the feed is one ordered stream: once its event is there, every earlier one is).
    const marker = `feed-end-${randomBytes(6).toString('hex')}`;
    const last = await rawRequest(base, 'POST', '/v1/api/payment-links', { headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json', 'x-idempotency-key': marker }, body: JSON.stringify({ title: marker, amount: 500 }) });
    assert.equal((await rawRequest(base, 'POST', `/v1/api/payment-links/${last.json.data.id}/simulate`, { headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json' }, body: '{}' })).status, 201);
    await feed.until(marker);
    feed.close();
    assert.ok((feed.text().match(/^event: event$/gm) ?? []).length >= 50, 'the events of the paid links are in the feed');
    check("the dashboard's live feed (GET /dashboard/stream)", feed.text());
    // Not vacuous: the metadata is in it, redacted.
    assert.match(feed.text(), /\[redacted\]/);
    assert.match(feed.text(), /\*{11}\d{4}/, 'a card in metadata is in the feed, masked');

    // The files: everything written (a compaction writes what waits), every byte read.
    assert.equal((await rawRequest(base, 'POST', '/_emulator/store/compact')).status, 200);
    const dir = join(dataDir, 'request-log');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    let onDisk = '';
    for (const f of readdirSync(dir)) {
      assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
      onDisk += readFileSync(join(dir, f), 'utf8');
    }
    assert.ok(onDisk.includes('api_key=[redacted]'), 'the entries are on disk');
    check('the files of <data dir>/request-log', onDisk);

    // The console, as docker logs shows it: every byte the process wrote, its stop included.
    assert.equal(await run.interrupt(), 0);
    stopped = true;
    const console = run.stdout() + run.stderr();
    assert.match(console, /GET \/dashboard\/time\?token=\[redacted\] 303 /, 'the login link is on the console, without its token');
    assert.match(console, /\[fault\] \S+ status=503 on GET \/v1\/api\/payments\/\S+ \(trace /, 'the fault lines are there');
    assert.match(console, /SMS to \+23177\d{7}: a 6-digit code/, 'the SMS line is there');
    assert.ok(console.split('\n').filter((l) => /^(GET|POST) \//.test(l)).length >= entries.length, 'a request line per request');
    check('stdout and stderr of svc emulator start', console);
  } finally {
    if (!stopped) await run.interrupt();
  }
});

test('svc emulator exec running the battery: nothing of it reaches exec\'s stdout or stderr', { timeout: 300_000 }, async () => {
  const out = join(tempDir('svc-secrets-exec-'), 'secrets.json');
  const controlToken = `svc_ctl_${randomBytes(24).toString('base64url')}`;
  const r = await runBinary(['emulator', 'exec', '--rate-limit', 'off', '--control-token', controlToken, '--', process.execPath, PROBES, out], { timeoutMs: 240_000 });
  assert.equal(r.code, 0, r.stderr);
  const secrets: Secret[] = JSON.parse(readFileSync(out, 'utf8'));
  assert.ok(secrets.length >= 200);
  assert.ok(secrets.some((s) => s.value === controlToken), 'the battery used exec\'s control token');
  // Not vacuous: the emulator under exec wrote its fault and SMS lines.
  assert.match(r.stderr, /\[fault\] \S+ status=503 on GET \/v1\/api\/payments\//);
  assert.match(r.stderr, /SMS to \+23177\d{7}: a 6-digit code/);
  assertClean(secrets, 'stdout and stderr of svc emulator exec', r.stdout + r.stderr);
});

test('the testing API: requests() holds none of the battery', { timeout: 300_000 }, async () => {
  const emu = await startTesting({ rateLimit: 'off' });
  try {
    const secrets = await sendProbes({ base: emu.baseUrl, controlToken: null });
    const entries = emu.requests();
    assert.ok(entries.length >= 200, `${entries.length} entries`);
    assertClean(secrets, 'requests() of the testing API', JSON.stringify(entries));
    assert.equal(emu.key('acme-test'), KEYS.acmeTest);
  } finally {
    await emu.close();
  }
});
