import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { KEYS, tempDir } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';
import { runBinary } from '../cli/run-binary.js';
import { startProxy } from './proxy.js';
import type { Difference } from '../../src/parity/compare.js';

// `svc parity` on hosts that misbehave (issue 38), through the built binary: an answer nested
// 5,000 levels deep is a difference at its step and path, not a stack overflow; an --out that
// cannot be written is refused before any request; an emulator on a manual clock has its
// delivery steps reported as skipped, with why, instead of as deliveries not received.

const PUBLISHED = packageFile('parity/emulator.snapshot.json');
const keys = ['--api-key', KEYS.acmeTest, '--emulator-fixtures'];
const noCrash = (text: string) => {
  assert.doesNotMatch(text, /Maximum call stack|RangeError/, text);
  assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `a stack trace:\n${text}`);
};
const NESTED = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const DEEP = `{"success":true,"data":{"id":${NESTED}}}`;

test('an answer nested 5,000 levels deep is a difference naming its step and path, recorded or checked, and nothing crashes', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const emulator = await procs.start(['--port', '0', '--quiet', '--data-dir', join(tempDir('svc-parity-deep-'), 'data')]);
    const dir = tempDir('svc-parity-deep-snap-');
    const normal = join(dir, 'normal.json');
    const rec = await runBinary(['parity', 'record', '--base-url', emulator.ready.base_url, ...keys, '--scenario', 'payment-links', '--scenario', 'payments', '--out', normal, '--json']);
    assert.equal(rec.code, 0, rec.stderr);
    // A host whose link creation answers {"success":true,"data":{"id":[[[…5,000 levels…]]]}}, and
    // whose payments list has such a created_at in its first row (where a rule reads times).
    const proxy = await startProxy(emulator.ready.base_url, (body, request) => {
      if (request === 'POST /v1/api/payment-links') return DEEP;
      if (request === 'GET /v1/api/payments' && body?.data?.payments?.length) {
        body.data.payments[0].created_at = 'DEEP';
        return JSON.stringify(body).replace('"DEEP"', NESTED);
      }
      return body;
    });
    try {
      const checked = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', normal, '--scenario', 'payment-links', '--scenario', 'payments', '--json']);
      noCrash(checked.stderr);
      assert.equal(checked.code, 1, checked.stderr);
      const diffs = checked.json().differences as Difference[];
      assert.deepEqual(
        diffs.find((d) => d.step === 'create' && d.where === '$.data.id'),
        { scenario: 'payment-links', step: 'create', route: 'POST /v1/api/payment-links', where: '$.data.id', expected: 'string "<pl_id:1>"', actual: 'array (1)' },
      );
      assert.deepEqual(
        diffs.find((d) => d.step === 'list' && d.where === 'rule:newest-first'),
        { scenario: 'payments', step: 'list', route: 'GET /v1/api/payments', where: 'rule:newest-first', expected: 'true', actual: 'false' },
      );

      // Recorded from that host, the answer keeps 64 levels and marks where it was cut; checked
      // again against it, the cut is a difference at its path (what lies below was not compared).
      const deep = join(dir, 'deep.json');
      const recDeep = await runBinary(['parity', 'record', '--base-url', proxy.url, ...keys, '--scenario', 'payment-links', '--out', deep]);
      noCrash(recDeep.stderr);
      assert.equal(recDeep.code, 0, recDeep.stderr);
      assert.match(readFileSync(deep, 'utf8'), /"<nested deeper than 64 levels>"/);
      const again = await runBinary(['parity', 'check', '--base-url', proxy.url, ...keys, '--snapshot', deep, '--scenario', 'payment-links']);
      noCrash(again.stderr);
      assert.equal(again.code, 1, again.stderr);
      const cut = `$.data.id${'[0]'.repeat(62)}`; // the 64th level below the body
      assert.ok(
        again.stdout.split('\n').includes(`DIFF  payment-links/create  (POST /v1/api/payment-links)  ${cut}: expected string "<nested deeper than 64 levels>", got string "<nested deeper than 64 levels>"`),
        again.stdout,
      );
    } finally {
      await proxy.close();
    }
  } finally {
    await procs.end();
  }
});

test('an --out that cannot be written is exit 2 before any request: a folder, a path under a file, a missing folder', async () => {
  const proxy = await startProxy('http://127.0.0.1:9');
  try {
    const dir = tempDir('svc-parity-out-');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const [out, why] of [
      [folder, 'it is a folder'],
      [join(file, 'x.json'), 'part of its path is a file'],
      [join(dir, 'missing', 'x.json'), 'its folder does not exist'],
    ]) {
      const r = await runBinary(['parity', 'record', '--base-url', proxy.url, ...keys, '--out', out!]);
      assert.equal(r.code, 2, `${out}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`error: cannot write --out ${out}: ${why}. Nothing was sent.`), r.stderr);
    }
    assert.deepEqual(proxy.seen, [], 'the host saw no request');
    assert.equal(readFileSync(file, 'utf8'), 'x');
  } finally {
    await proxy.close();
  }
});

test('an emulator on a manual clock: its delivery steps are skipped, with the reason, not reported as deliveries not received', async (t) => {
  const procs = svcProcesses(t.signal);
  try {
    const emulator = await procs.start(['--port', '0', '--quiet', '--clock', 'manual', '--data-dir', join(tempDir('svc-parity-manual-'), 'data')]);
    const args = ['parity', 'check', '--base-url', emulator.ready.base_url, ...keys, '--snapshot', PUBLISHED, '--scenario', 'webhook-deliveries'];
    const r = await runBinary([...args, '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = r.json();
    assert.deepEqual(report.differences, []);
    assert.equal(report.skipped_steps.length, 1, JSON.stringify(report.skipped_steps));
    const [skipped] = report.skipped_steps;
    assert.equal(`${skipped.scenario}/${skipped.step}`, 'webhook-deliveries/deliveries');
    assert.match(skipped.reason, /^skipped now: the emulator runs --clock manual: its webhook attempts wait for a clock advance/);
    const human = await runBinary(args);
    assert.equal(human.code, 0, human.stdout + human.stderr);
    assert.match(human.stdout, /^skipped {2}webhook-deliveries\/deliveries {2}— skipped now: the emulator runs --clock manual/m);
    assert.doesNotMatch(human.stdout, /not received/);
  } finally {
    await procs.end();
  }
});
