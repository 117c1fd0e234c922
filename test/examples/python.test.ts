import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runExample, startRelay } from './example-run.js';

// examples/python (standard library unittest) under `svc emulator exec --clock manual`, as its
// README runs it. Then through a relay that changes one hex digit of Svc-Signature: the suite
// must fail, at its signature check; through the same relay unchanged it must pass (so the
// failure is the byte's doing, not the relay's).

const SUITE = ['python3', '-m', 'unittest', 'discover', '-v', '-s', 'examples/python'];
const FLOW = 'test_paid_link_sends_a_signed_webhook_and_retries_after_a_500';
const OTP = 'test_otp_from_the_control_api_completes_a_sub_merchant';
/** unittest -v's verdict line for a test; one line of the test's own output (the receiver's address, the emulator's SMS log) may come between. */
const verdict = (name: string, word: 'ok' | 'FAIL') => new RegExp(`^${name} \\([^)]*\\) \\.\\.\\. (?:[^\\n]*\\n)?${word}$`, 'm');

test('the Python example suite passes under svc emulator exec', async () => {
  const run = await runExample(SUITE);
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, verdict(FLOW, 'ok'));
  assert.match(run.output, verdict(OTP, 'ok'));
  assert.match(run.output, /Ran 9 tests/);
});

for (const mode of ['unchanged', 'change-signature-byte'] as const) {
  test(`the Python example through a relay that forwards deliveries ${mode === 'unchanged' ? 'unchanged passes' : 'with one signature byte changed fails at its signature check'}`, async () => {
    const relay = await startRelay(mode);
    try {
      const run = await runExample(SUITE, { env: { EXAMPLE_WEBHOOK_URL: relay.url }, onOutput: relay.watch });
      assert.ok(relay.forwarded >= 1, `the example registered the relay and deliveries went through it:\n${run.output}`);
      if (mode === 'unchanged') {
        assert.equal(run.code, 0, run.output);
        assert.equal(relay.forwarded, 2, 'the first attempt and its retry');
        return;
      }
      assert.equal(relay.changed, relay.forwarded);
      assert.notEqual(run.code, 0, run.output);
      // The flow test, and only it, failed, at the receiver's signature check.
      assert.match(run.output, verdict(FLOW, 'FAIL'));
      assert.match(run.output, verdict(OTP, 'ok'));
      assert.match(run.output, /AssertionError: False is not true : Svc-Signature did not verify \(no_matching_signature: /);
      assert.match(run.output, /FAILED \(failures=1\)/);
    } finally {
      await relay.close();
    }
  });
}
