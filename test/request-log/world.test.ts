import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, tempDir } from '../helpers/emulator.js';
import { startSvc } from '../helpers/svc-process.js';
import { cliHome } from '../cli/cli.js';

// The request log is part of the world: `exec --export-on-exit` writes it with the rest, and
// `start --import` brings it back; a restored snapshot's entries keep their ids and times as
// written, through a restart too.

const home = cliHome();

async function entries(base: string): Promise<any[]> {
  const res = await fetch(`${base}/_emulator/requests?limit=100`);
  assert.equal(res.status, 200);
  return ((await res.json()) as any).data.requests;
}

test('exec --export-on-exit keeps the request log; start --import brings it back', async () => {
  const out = join(tempDir('svc-export-log-'), 'world');
  const cwd = tempDir('svc-exec-log-');
  const script = join(cwd, 'calls.mjs');
  writeFileSync(
    script,
    `const call = (trace, body) => fetch(process.env.SVC_BASE_URL + '/v1/api/payment-links', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID(), 'x-trace-id': trace }, body: JSON.stringify(body) });
     console.log((await call('trc-export-ok', { title: 'exported', amount: 100, currency: 'USD' })).status, (await call('trc-export-bad', { title: '' })).status);`,
  );
  // Binary: exec owns its process (the command inherits its stdio; exec exits with its code).
  const r = await home.run(['emulator', 'exec', '--export-on-exit', out, '--', process.execPath, script], { cwd, binary: true });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), '201 422');
  const world = JSON.parse(readFileSync(join(out, 'world.json'), 'utf8'));
  assert.deepEqual(
    world.collections.request_log.map((e: any) => [e.trace_id, e.status]),
    [
      ['trc-export-ok', 201],
      ['trc-export-bad', 422],
    ],
  );
  assert.ok(!JSON.stringify(world.collections.request_log).includes(KEYS.acmeTest), "the export's log holds no API key");

  const proc = await startSvc(['--port', '0', '--data-dir', tempDir('svc-import-log-'), '--quiet', '--import', out]);
  try {
    const logged = await entries(proc.ready.base_url);
    assert.deepEqual(
      logged.map((e) => [e.trace_id, e.status, e.error_code]),
      [
        ['trc-export-bad', 422, 'VALIDATION_ERROR'],
        ['trc-export-ok', 201, null],
      ],
    );
    const { at_ms: _ms, ...first } = world.collections.request_log[0];
    assert.deepEqual(logged[1], first, 'the entry comes back as it was exported');
  } finally {
    proc.child.kill('SIGTERM');
    await proc.done;
  }
});

test("a restored snapshot's entries keep their ids and times as written, through a restart", async () => {
  const dataDir = tempDir('svc-restore-log-');
  let emu = await startTestEmulator({ dataDir, config: { retainDays: 100_000 } });
  try {
    const snapshot: any = ((await (await fetch(`${emu.baseUrl}/_emulator/snapshot`)).json()) as any).data;
    const entry = {
      id: 'req_made_by_hand',
      at: '2026-01-02T03:04:05Z',
      at_ms: Date.parse('2026-01-02T03:04:05Z') - 1234,
      method: 'POST',
      path: '/v1/api/payment-links?x="quoted"\ttab',
      status: 201,
      duration_ms: 0.0001234,
      key_name: null,
      key_last4: null,
      merchant_id: null,
      environment: null,
      idempotency_key: 'ik-\u00e9\n',
      idempotency: null,
      trace_id: 'trc-by-hand',
      error_code: null,
      fault: null,
      request_body: '{"a":"line\\nbreak"}\n\t',
      response_body: null,
      resources: ['pl_1', 'evt_2'],
    };
    snapshot.collections.request_log = [entry];
    const restored = await fetch(`${emu.baseUrl}/_emulator/snapshot/restore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(snapshot) });
    assert.equal(restored.status, 200, await restored.text());
    const { at_ms: _ms, ...shown } = entry;
    const get = async () => ((await (await fetch(`${emu.baseUrl}/_emulator/requests/req_made_by_hand`)).json()) as any).data;
    assert.deepEqual(await get(), shown);
    await emu.stop({ keepData: true });
    emu = await startTestEmulator({ dataDir, config: { retainDays: 100_000 } });
    assert.deepEqual(await get(), shown);
    assert.deepEqual((await entries(emu.baseUrl)).map((e) => e.id), ['req_made_by_hand']);
    // The snapshot has the whole record back, its at_ms too.
    const again: any = ((await (await fetch(`${emu.baseUrl}/_emulator/snapshot`)).json()) as any).data;
    assert.deepEqual(again.collections.request_log, [entry]);
  } finally {
    await emu.stop();
  }
});
