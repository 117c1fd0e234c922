import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runExample, startRelay } from './example-run.js';

// examples/java (JDK 17 standard library, compiled by run.sh into a temp dir) under
// `svc emulator exec --clock manual`, as its README runs it. Then through a relay that changes
// one hex digit of Svc-Signature: the suite must fail, at its signature check; through the same
// relay unchanged it must pass (so the failure is the byte's doing, not the relay's).

const SUITE = ['sh', 'examples/java/run.sh'];
const FLOW = 'PaymentWebhookTest.paidLinkSendsASignedWebhookAndRetriesAfterA500';

test('the Java example suite passes under svc emulator exec', async () => {
  const run = await runExample(SUITE);
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, new RegExp(`ok +${FLOW}`));
  assert.match(run.output, /ok +SubMerchantOtpTest\.otpFromTheControlApiCompletesASubMerchant/);
  assert.match(run.output, /9 tests, 0 failed/);
});

for (const mode of ['unchanged', 'change-signature-byte'] as const) {
  test(`the Java example through a relay that forwards deliveries ${mode === 'unchanged' ? 'unchanged passes' : 'with one signature byte changed fails at its signature check'}`, async () => {
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
      assert.match(run.output, new RegExp(`FAIL ${FLOW}`));
      assert.match(run.output, /AssertionError: Svc-Signature did not verify \(no_matching_signature: /);
      assert.match(run.output, /9 tests, 1 failed/);
    } finally {
      await relay.close();
    }
  });
}
