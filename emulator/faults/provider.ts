import type { Services } from '../services.js';

// Provider faults: the payout provider or MoMo clearing is down until a time on the emulator's
// clock. A provider answer that falls due during the outage waits for its end (the payout stays
// `processing`, the payment `pending`), then resolves as usual. Card declines need no fault:
// the spec's test card numbers already drive them (emulator/resources/cards/test-cards.ts).

export type Provider = 'payouts' | 'momo';

/**
 * Runs `answer` now, or — while the provider is down — once the outage ends (logged as a fault
 * firing). The caller's timer fired at the answer's due time.
 */
export function whenProviderUp(services: Services, provider: Provider, subject: string, answer: () => void): void {
  const now = services.clock.now();
  const outage = services.faults.empty ? undefined : services.faults.active((f) => f.provider === provider && f.until_ms !== undefined && f.until_ms > now);
  if (!outage) return answer();
  const until = outage.until_ms!;
  services.faults.record({ fault_id: outage.id, kind: 'down', target: `${provider} ${subject}`, after_commit: false, detail: `held until ${new Date(until).toISOString()}` });
  services.log.notice(`[fault] ${outage.id} ${provider} provider down: ${subject} answers at ${new Date(until).toISOString()}`);
  // Checked again then: another outage may have been added meanwhile.
  services.clock.at(until, () => whenProviderUp(services, provider, subject, answer));
}
