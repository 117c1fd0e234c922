import type { FaultInput } from '../../contract/faults.js';

// Named sets of faults a user can list and apply in one go (svc emulator faults presets /
// apply NAME). Each stands for a way a real payments service and its network fail. Seeds are
// fixed, so a run with a preset is repeatable.

interface Preset {
  name: string;
  description: string;
  faults: FaultInput[];
}

export const PRESETS: Preset[] = [
  {
    name: 'flaky-network',
    description: 'Slow and dropped connections: 30% of API calls wait 50 ms–1 s, 5% have their connection reset, 20% of webhook attempts are lost',
    faults: [
      { route: '* /v1/*', kind: 'latency', latency: '50ms..1s', probability: 0.3, seed: 1 },
      { route: '* /v1/*', kind: 'reset', probability: 0.05, seed: 2 },
      { deliveries: {}, kind: 'drop', probability: 0.2, seed: 3 },
    ],
  },
  {
    name: 'lost-responses',
    description: 'One POST in five succeeds but its answer is lost (502 after commit): retries must reuse their idempotency key',
    faults: [{ route: 'POST /v1/*', kind: 'status', status: 502, after_commit: true, probability: 0.2, seed: 4 }],
  },
  {
    name: 'overloaded',
    description: 'Rate limiting and outages: 20% of API calls answer 429 (Retry-After: 1), 10% answer 503',
    faults: [
      { route: '* /v1/*', kind: 'status', status: 429, probability: 0.2, seed: 5 },
      { route: '* /v1/*', kind: 'status', status: 503, probability: 0.1, seed: 6 },
    ],
  },
  {
    name: 'provider-outage',
    description: 'The payout provider is down for 1 h (payouts stay processing, then resolve) and MoMo clearing is down for 30 min',
    faults: [
      { provider: 'payouts', kind: 'down', for: '1h' },
      { provider: 'momo', kind: 'down', for: '30m' },
    ],
  },
  {
    name: 'duplicate-webhooks',
    description: 'Every webhook delivery is sent twice with the same Svc-Delivery (receivers must dedupe)',
    faults: [{ deliveries: {}, kind: 'duplicate' }],
  },
];
