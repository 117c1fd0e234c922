import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareShape, parseElided } from './json-shape.js';

// The README test's own reader: a comparison that let everything through would make the README
// test pass on a README that is wrong.

const differs = (example: string, real: unknown) => compareShape(parseElided(example), real);

test('an example with elisions matches a real answer that has what it shows', () => {
  const real = { success: true, data: { id: 'pl_abc', link_code: 'PL-X1', status: 'pending', amount: 1200 } };
  assert.deepEqual(differs('{"success":true,"data":{"id":"pl_…","link_code":"PL-…","status":"pending",…}}', real), []);
  assert.deepEqual(differs('{"scopes":["payments:create",…]}', { scopes: ['payments:create', 'payments:read'] }), []);
  assert.deepEqual(differs('{"keys":[{"name":"a"}, …]}', { keys: [{ name: 'a' }, { name: 'b' }] }), []);
});

test('it fails on a missing member, an extra member without "…", another value, another type, another length', () => {
  assert.match(differs('{"id":"pl_…","status":"pending"}', { id: 'pl_1' }).join(), /\$\.status: shown in the README, not in the real answer/);
  assert.match(differs('{"id":"pl_…"}', { id: 'pl_1', extra: 1 }).join(), /\$\.extra: in the real answer, missing from the README/);
  assert.match(differs('{"status":"pending",…}', { status: 'completed' }).join(), /"pending".*"completed"/);
  assert.match(differs('{"id":"pl_…",…}', { id: 'pay_1' }).join(), /\$\.id/);
  assert.match(differs('{"n":1,…}', { n: '1' }).join(), /\$\.n/);
  assert.match(differs('{"a":[1,2]}', { a: [1, 2, 3] }).join(), /2 elements and no "…", the real answer has 3/);
  assert.match(differs('{"a":null}', { a: {} }).join(), /\$\.a/);
});

test('varying keys are compared by type, byShape keys with any digits', () => {
  assert.deepEqual(compareShape(parseElided('{"latency_ms":3}'), { latency_ms: 70 }, { varies: ['latency_ms'] }), []);
  assert.notDeepEqual(compareShape(parseElided('{"latency_ms":3}'), { latency_ms: null }, { varies: ['latency_ms'] }), []);
  assert.deepEqual(compareShape(parseElided('{"at":"2026-11-21T12:00:00.000001Z"}'), { at: '2027-01-02T03:04:05.000025Z' }, { byShape: ['at'] }), []);
  assert.notDeepEqual(compareShape(parseElided('{"at":"2026-11-21T12:00:00.000001Z"}'), { at: '2027-01-02T03:04:05.000Z' }, { byShape: ['at'] }), []);
});

test('a "…" inside a string is text there, not an elision', () => {
  assert.deepEqual(parseElided('{"body":"{\\"type\\":\\"x\\",…}",…}'), { body: '{"type":"x",…}', '\u2026more': true });
  assert.deepEqual(differs('{"body":"{\\"type\\":\\"x\\",…}"}', { body: '{"type":"x","data":{}}' }), []);
});
