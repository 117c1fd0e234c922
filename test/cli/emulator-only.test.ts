import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { KEYS } from '../helpers/emulator.js';
import { cliHome, target } from './cli.js';

// Emulator-only commands (payroll approve, emulator *, trigger payroll_run.*, coverage) against a host
// that is not an svc emulator: a local server that records everything it receives. The CLI
// must refuse (exit 2, saying why) after one credential-free identity probe — the PIN, the key
// and the action itself never reach that host.

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

const cli = cliHome();
let server: Server;
let base = '';
const seen: Seen[] = [];
/** What the fake host answers on /_emulator/health: a live host's 404, or a look-alike without the emulator's name. */
let health: { status: number; body: unknown } = { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'No route.' } } };

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      const answer = req.url === '/_emulator/health' ? health : { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'No route.' } } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((ok) => server.close(() => ok())));

const commands: [string, string[], string][] = [
  ['payroll approve --yes with a live key', ['payroll', 'approve', 'prun_0123456789abcdef', '--pin', '1357', '--yes'], KEYS.acmeLive],
  ['trigger payroll_run.completed', ['trigger', 'payroll_run.completed', '--pin', '1357'], KEYS.acmeTest],
  ['emulator clock advance', ['emulator', 'clock', 'advance', '1h'], KEYS.acmeTest],
  ['emulator users', ['emulator', 'users'], KEYS.acmeTest],
  ['coverage', ['coverage'], KEYS.acmeTest],
];

for (const [look, answer] of [
  ['a live host (404 on /_emulator)', { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'No route.' } } }],
  ['a look-alike whose health does not name the emulator', { status: 200, body: { success: true, data: { ok: true } } }],
] as const) {
  for (const [name, args, key] of commands) {
    test(`${name} against ${look}: refused (exit 2) before anything but the identity probe is sent`, async () => {
      health = answer;
      seen.length = 0;
      const r = await cli.run([...args, ...target(base, key)]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`${base.replace(/[.]/g, '\\.')} is not an svc emulator .*emulator-only action.*nothing was sent`));
      assert.deepEqual(
        seen.map((s) => `${s.method} ${s.url}`),
        ['GET /_emulator/health'],
        'one probe, nothing else',
      );
      assert.equal(seen[0].authorization, undefined, 'the probe carries no key');
      assert.ok(!seen.some((s) => s.body.includes('1357') || s.url.includes('1357')), 'the PIN never left');
      assert.equal(r.stdout, '');
    });
  }
}
