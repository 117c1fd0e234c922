import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { verifySignature } from '../../src/webhooks/signature.js';
import { ReceiverReport, type CheckId } from '../../contract/webhook-check.js';
import { startEmulator, type TestEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';
import { startSampleReceiver } from './receivers/express.js';

// `svc webhooks check` against receivers that answer badly, each a raw TCP server (the bytes
// are the point, so no HTTP library writes them): garbage, an HTTP/0.9 answer (a body with no
// status line), a connection closed mid-headers, a 200 KB header, a reset. The sender counts
// each as a failed attempt, so the check grades it as one, check by check, instead of calling
// the receiver unreachable. And --timeout bounds the whole check, a TLS handshake with a
// server that never answers included (it held a 1 ms check 10 s: undici's connect timeout).

const SECRET = 'check-bad-answers-secret';

/** How each bad answer is written, and the error the report names for it. */
const BAD_ANSWERS: Record<string, { write(socket: Socket): void; error: RegExp }> = {
  garbage: { write: (s) => s.end(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0x0d, 0x0a, 0x0d, 0x0a])), error: /^not an HTTP\/1\.1 answer \(/ },
  'HTTP/0.9': { write: (s) => s.end('ok\n'), error: /^not an HTTP\/1\.1 answer \(/ },
  'closed mid-headers': { write: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Type: text/pl'), error: /^connection closed before a response \(UND_ERR_SOCKET\)$/ },
  '200 KB header': { write: (s) => s.end(`HTTP/1.1 200 OK\r\nX-Padding: ${'a'.repeat(200 * 1024)}\r\nContent-Length: 0\r\n\r\n`), error: /^response headers larger than 16 KB \(UND_ERR_HEADERS_OVERFLOW\)$/ },
  reset: { write: (s) => s.resetAndDestroy(), error: /^connection reset \(ECONNRESET\)$/ },
};

interface RawReceiver {
  url: string;
  close(): Promise<void>;
}
const open: RawReceiver[] = [];
after(() => Promise.all(open.map((r) => r.close())));

/**
 * A receiver on a raw socket: it reads each request whole (headers, then Content-Length bytes),
 * verifies its signature correctly, and answers `bad` to every request (`to: 'all'`) or only to
 * those it refuses (`to: 'refused'`; the others get a proper 200). One request per connection.
 */
async function rawReceiver(bad: (socket: Socket) => void, to: 'all' | 'refused'): Promise<RawReceiver> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // a reset we made, or the sender giving up
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = data.subarray(end + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      socket.removeAllListeners('data');
      const verified = verifySignature({ secret: SECRET, header: headers['svc-signature'], body }).ok;
      if (to === 'refused' && verified) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else bad(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const r = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  open.push(r);
  return r;
}

let emu: TestEmulator;
before(async () => {
  emu = await startEmulator({ clock: 'manual' });
});
after(() => emu.close());

const check = (r: ReceiverReport, id: CheckId) => r.checks.find((c) => c.id === id)!;
const GATED = ['bad', 'timestamps', 'refusal_status', 'duplicate', 'forward_compat'] as const;

for (const [name, { write, error }] of Object.entries(BAD_ANSWERS)) {
  test(`${name} to every delivery: a report, not "cannot reach"; Valid deliveries fails naming it, the rest needing an accepted delivery is not graded`, async () => {
    const r = await rawReceiver(write, 'all');
    const report = ReceiverReport.parse(await emu.checkWebhookReceiver(r.url, { secret: SECRET }));
    assert.equal(report.ok, false);
    const valid = check(report, 'valid');
    assert.equal(valid.verdict, 'fail');
    assert.match(valid.why, /^no correctly signed delivery got an HTTP answer: /);
    assert.ok(valid.requests.every((q) => q.status === null && error.test(q.error ?? '') && q.verdict === 'fail'), JSON.stringify(valid.requests.map((q) => q.error)));
    assert.match(valid.fix ?? '', /HTTP\/1\.1 status line/);
    for (const id of GATED) assert.equal(check(report, id).verdict, 'not_graded', id);
    assert.deepEqual([check(report, 'time').verdict, check(report, 'redirects').verdict], ['pass', 'pass']);
  });

  test(`${name} to the deliveries it refuses: graded as a failed refusal ("Refusals are 4xx" warns), every other check passes`, async () => {
    const r = await rawReceiver(write, 'refused');
    const report = ReceiverReport.parse(await emu.checkWebhookReceiver(r.url, { secret: SECRET }));
    const verdicts = Object.fromEntries(report.checks.map((c) => [c.id, c.verdict]));
    assert.deepEqual(verdicts, { valid: 'pass', bad: 'pass', timestamps: 'pass', refusal_status: 'warn', duplicate: 'pass', forward_compat: 'pass', time: 'pass', redirects: 'pass', transport: 'pass' }, JSON.stringify(report.checks.map((c) => [c.id, c.why])));
    const refusals = check(report, 'refusal_status');
    assert.equal(refusals.requests.length, 7, 'five forged deliveries and two out of tolerance');
    assert.ok(refusals.requests.every((q) => q.status === null && error.test(q.error ?? '') && q.verdict === 'fail' && q.expected === '4xx'));
    assert.match(refusals.why, /^7 of 7 refused deliveries were not answered 4xx: no Svc-Signature header → no answer \(/);
  });
}

test('through the CLI: a receiver that answers garbage is graded (exit 1, the report on stdout), never "cannot reach"', async () => {
  const r = await rawReceiver(BAD_ANSWERS.garbage.write, 'all');
  const run = await runBinary(['webhooks', 'check', r.url, '--secret', SECRET]);
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /cannot reach/);
  assert.match(run.stdout, /^ {2}fail {2}Valid deliveries \(spec\)\n {8}why: no correctly signed delivery got an HTTP answer: not an HTTP\/1\.1 answer/m);
  assert.match(run.stdout, /^FAILED: 3 passed, 1 failed, 0 warned, 5 not graded$/m);
});

/** A TCP server that takes connections and bytes and never answers (a TLS ClientHello waits forever). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('data', () => {});
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

test('--timeout bounds the whole check, TLS included: https:// to a server that never answers ends within the timeout, not a connect timeout later', async (t) => {
  const silent = await silentServer();
  t.after(() => silent.close());
  const quick = await startSampleReceiver('correct', SECRET);
  t.after(() => quick.close());
  // A check sends in three waves, each bounded by the timeout: the first delivery alone, the
  // rest at once, the duplicate's second copy once its first was answered (or timed out). The
  // slack scales with what a whole check costs on this machine now (20 deliveries answered at
  // once), so a busy machine gets more room. Unbounded, the TLS connects held the check for
  // undici's 10 s connect timeout, whatever the timeout given.
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  const timeoutMs = 1000;
  const baseline = await timed(() => emu.checkWebhookReceiver(quick.url, { secret: SECRET, timeoutMs }));
  let report: ReceiverReport | undefined;
  const took = await timed(async () => (report = await emu.checkWebhookReceiver(`https://127.0.0.1:${silent.port}/webhooks`, { secret: SECRET, timeoutMs })));
  assert.ok(took < 3 * timeoutMs + 2 * baseline + 1000, `took ${Math.round(took)} ms with a ${timeoutMs} ms timeout (a check answered at once took ${Math.round(baseline)} ms)`);
  assert.equal(check(report!, 'time').verdict, 'fail');
  assert.match(check(report!, 'time').why, /^20 of 20 deliveries got no answer within 1 s/);

  // The CLI, as the issue ran it: --timeout 1ms; its baseline is a run that ends at its first
  // refused connection (a process start and one attempt).
  const closed = await silentServer();
  const refusedUrl = `http://127.0.0.1:${closed.port}/webhooks`;
  await closed.close();
  const cliBaseline = await timed(() => runBinary(['webhooks', 'check', refusedUrl, '--secret', SECRET]));
  let code: number | null = null;
  const cliTook = await timed(async () => ({ code } = await runBinary(['webhooks', 'check', `https://127.0.0.1:${silent.port}/webhooks`, '--secret', SECRET, '--timeout', '1ms'])));
  assert.equal(code, 1);
  assert.ok(cliTook < 3 * 1 + 2 * cliBaseline + 1000, `the CLI took ${Math.round(cliTook)} ms with --timeout 1ms (one that ended at a refused connection took ${Math.round(cliBaseline)} ms)`);
});
