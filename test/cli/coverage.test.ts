import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliSession } from './cli.js';

// `svc coverage` against a running emulator: the same report as GET /_emulator/coverage
// (--json), a summary per kind with the most important items never exercised and how, ignore
// patterns (a pattern that names nothing warns once), and it refuses a host that is no emulator.

const cli = cliSession();

test('svc coverage prints the summary; --json is the report; --ignore leaves items out and warns once for one that names nothing', async () => {
  assert.equal((await cli.emu.request('GET', '/v1/api/payments')).status, 200);
  assert.equal((await cli.emu.request('GET', '/v1/api/payments', { key: null })).status, 401);
  const human = await cli.svc(['coverage']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^\d+\.\d% covered: 2 of \d+ items$/m);
  assert.match(human.stdout, /^ {2}route +1\/24 +4\.1% +0$/m);
  assert.match(human.stdout, /^ {2}error +1\/\d+ /m);
  assert.match(human.stdout, /Never exercised, most important first \(10 of \d+\):\n {2}delivery {2}retried after a 5xx\n {12}how: answer 500 to an attempt/);

  const json = await cli.svc(['coverage', '--json', '--ignore', 'payroll,sub-merchants', '--ignore', 'refunds']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report, await cli.control('/coverage?ignore=payroll,sub-merchants,refunds'));
  assert.equal(report.items.find((i: { name: string }) => i.name === 'GET /v1/api/payments 401 UNAUTHORIZED').count, 1);
  assert.ok(report.items.filter((i: { ignored: boolean }) => i.ignored).every((i: { name: string }) => /payroll|sub-merchants/.test(i.name)));
  assert.deepEqual(report.unmatched_ignore, ['refunds']);
  assert.equal(json.stderr, 'warning: --ignore "refunds" matches no coverage item; nothing was ignored for it\n');

  const empty = await cli.svc(['coverage', '--ignore', ',']);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /--ignore.*is empty/);
});
