import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { KEYS } from '../helpers/emulator.js';
import { cliHome, target } from './cli.js';

// Bad flag values are refused on this side with the API's own zod schemas: exit 2, the flag
// named, and nothing sent — the host here is a local server that records every request.

const cli = cliHome();
let server: Server;
let base = '';
const seen: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false,"error":{"code":"INTERNAL","message":"should not be called"}}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((ok) => server.close(() => ok())));

const cases: [string[], RegExp][] = [
  [['payments', 'summary', '--since', 'yesterday'], /--since: "yesterday" is not valid: expected an ISO-8601 timestamp .* or a date/],
  [['payments', 'list', '--before', 'yesterday'], /--before: "yesterday" is not valid: expected an ISO-8601 timestamp/],
  [['links', 'create', '--title', 'x', '--expires-at', 'tomorrow'], /--expires-at: "tomorrow" is not valid: expected an ISO-8601 timestamp/],
  [['links', 'create', '--title', 'x', '--currency', 'usd'], /--currency: "usd" is not valid: must be an ISO-4217 currency code in upper case/],
  [['charges', 'create', '--mandate', 'mdt_x', '--amount', '100', '--currency', 'usd'], /--currency: "usd" is not valid/],
  [['payouts', 'create', '--payee', 'payee_x', '--amount', '100', '--currency', 'dollars'], /--currency: "dollars" is not valid/],
  [['mandates', 'create', '--rail', 'wallet', '--customer-ref', 'c1', '--max-amount', '100', '--currency', 'EUR', '--customer-phone', '+231770000201'], /--currency: "EUR" is not valid/],
  [['trigger', 'payroll_run.completed', '--currency', 'EUR', '--pin', '1357'], /--currency: "EUR" is not valid/],
  [['emulator', 'wallets', 'top-up', '--currency', 'usd', '--amount', '100'], /--currency: "usd" is not valid/],
  [['emulator', 'clock', 'advance', '2'], /clock advance: not a duration: "2" \(use e\.g\. 90s, 2h/],
];

for (const [args, message] of cases) {
  test(`${args.join(' ')}: exit 2 naming the flag, nothing sent`, async () => {
    seen.length = 0;
    const r = await cli.run([...args, ...target(base, KEYS.acmeTest)]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.deepEqual(seen, [], 'no request reached the host');
  });
}
