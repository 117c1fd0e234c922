import type { Services } from '../services.js';

// Provider faults: the payout provider or MoMo clearing is down until a time on the emulator's
// clock. A provider answer that falls due during the outage waits for its end (the payout stays
// `processing`, the payment `pending`), then resolves as usual. Card declines need no fault:
// the spec's test card numbers already drive them (emulator/resources/cards/test-cards.ts).

type Provider = 'payouts' | 'momo';

/**
 * When the provider is down now: the time it answers again (the caller's timed work tries
 * again then: the scheduler's `retryAt`), with the hold logged as a fault firing. Undefined
 * when it is up. Checked again at that time: another outage may have been added meanwhile.
 */
export function providerOutage(services: Services, provider: Provider, subject: string): number | undefined {
  const now = services.clock.now();
  const outage = services.faults.empty ? undefined : services.faults.active((f) => f.provider === provider && f.until_ms !== undefined && f.until_ms > now);
  if (!outage) return undefined;
  const until = outage.until_ms!;
  services.faults.record({ fault_id: outage.id, kind: 'down', target: `${provider} ${subject}`, after_commit: false, detail: `held until ${new Date(until).toISOString()}` });
  services.log.notice(`[fault] ${outage.id} ${provider} provider down: ${subject} answers at ${new Date(until).toISOString()}`);
  return until;
}
