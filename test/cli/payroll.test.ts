import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { cliSession, familySmokeTest } from './cli.js';

// payroll create|get|approve without a terminal (in-process): files checked locally, the PIN from --pin.

const cli = cliSession();
const { svc } = cli;
const dir = tempDir('svc-cli-files-');

test('payroll create from CSV (quoted cells), approve --pin, get: partial run with the unmatched line', async () => {
  const csv = join(dir, 'november.csv');
  writeFileSync(csv, 'external_ref,payee_phone,amount_cents,label\r\nE-1,+231770000201,1000,Mary\r\n"E-2",+231770000999,500,"Nobody, really"\r\n');
  const created = await svc(['payroll', 'create', '--file', csv, '--currency', 'USD', '--note', 'November', '--json'], undefined, familySmokeTest);
  assert.equal(created.code, 0, created.stderr);
  const { run, payments, approval_url } = created.json();
  assert.equal(run.status, 'pending_approval');
  assert.equal(run.note, 'November');
  assert.deepEqual(
    payments.map((l: { external_ref: string; label: string }) => [l.external_ref, l.label]),
    [
      ['E-1', 'Mary'],
      ['E-2', 'Nobody, really'],
    ],
  );
  assert.match(approval_url, new RegExp(`/payroll-approval/${run.id}$`));

  const noPin = await svc(['payroll', 'approve', run.id]);
  assert.equal(noPin.code, 2);
  assert.match(noPin.stderr, /missing --pin/);

  const wrong = await svc(['payroll', 'approve', run.id, '--pin', '0000']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /PIN_INVALID/);

  const approved = await svc(['payroll', 'approve', run.id, '--pin', '1357', '--json']);
  assert.equal(approved.code, 0, approved.stderr);
  assert.equal(approved.json().run.status, 'partial');
  const got = (await svc(['payroll', 'get', run.id, '--json'])).json();
  assert.deepEqual(got, (await cli.emu.request('GET', `/v1/api/payroll/runs/${run.id}`)).json.data);
  assert.deepEqual(
    got.payments.map((l: { status: string }) => l.status),
    ['paid', 'needs_attention'],
  );
});

test('payroll create from a JSON body file; an invalid file is refused locally (exit 2) with the line named', async () => {
  const good = join(dir, 'run.json');
  writeFileSync(good, JSON.stringify({ currency: 'LRD', payments: [{ external_ref: 'J-1', payee_phone: '+231770000202', amount_cents: 2000 }] }));
  const created = await svc(['payroll', 'create', '--file', good, '--json']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.json().run.currency, 'LRD');

  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'external_ref,payee_phone,amount_cents\nB-1,+231770000201,12.50\n');
  const before = (await cli.emu.request('GET', '/_emulator/events', { key: null })).text;
  const r = await svc(['payroll', 'create', '--file', bad, '--currency', 'USD']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /payments\.0\.amount_cents/);
  assert.equal((await cli.emu.request('GET', '/_emulator/events', { key: null })).text, before);

  const big = join(dir, 'big.csv');
  writeFileSync(big, `external_ref,payee_phone,amount_cents\n${Array.from({ length: 501 }, (_, i) => `R-${i},+231770000201,100`).join('\n')}\n`);
  const tooMany = await svc(['payroll', 'create', '--file', big, '--currency', 'USD']);
  assert.equal(tooMany.code, 2);
  assert.match(tooMany.stderr, /501 lines; a run holds at most 500/);

  const noCurrency = await svc(['payroll', 'create', '--file', bad]);
  assert.equal(noCurrency.code, 2);
  assert.match(noCurrency.stderr, /missing --currency/);
});
