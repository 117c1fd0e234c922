import { createInterface } from 'node:readline';
import { LINK_FIELDS } from './bodies.js';
import { fetchJson, Load, type LoadRequest, type LoadResult } from './load.js';

// The load generator (load.ts) in a process of its own, for loads that must start somewhere
// else than the bench's process: inside a network namespace (`ip netns exec <ns> node
// dist/bench/lib/load-agent.js`), where the server's address is only reachable from there.
// agent.ts drives it over stdin/stdout, one JSON line each way:
//   in:  {"spec": AgentSpec}                  first line: what to load (answers {"ready":true})
//        {"warmUp": ms} | {"measure": ms}     one slice (answers {"done":true,"result":…,"cpuMs":…})
//   end of stdin: closes the pool and exits.

export interface AgentSpec {
  baseUrl: string;
  /** GET a random one of `ids` (/v1/api/payments/{id}), or POST a payment link with a fresh idempotency key. */
  kind: 'get' | 'post';
  key: string;
  ids: string[];
  /** Makes the idempotency keys of this load unique across loads and runs. */
  tag: string;
  /**
   * Headers for the emulator's GET /_emulator/metrics (e.g. the control token): when given, its
   * counters are reset before each measured slice and its CPU time read after, as the api rows do.
   */
  metricsHeaders?: Record<string, string>;
}

interface Metrics {
  cpu_user_ms: number;
  cpu_system_ms: number;
}

const linkBody = JSON.stringify(LINK_FIELDS);

function requests(spec: AgentSpec): (i: number) => LoadRequest {
  const auth = { authorization: `Bearer ${spec.key}` };
  if (spec.kind === 'get') return () => ({ method: 'GET', path: `/v1/api/payments/${spec.ids[Math.floor(Math.random() * spec.ids.length)]}`, headers: auth });
  return (i) => ({ method: 'POST', path: '/v1/api/payment-links', headers: { ...auth, 'content-type': 'application/json', 'x-idempotency-key': `bench-${spec.tag}-${i}` }, body: linkBody });
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

let load: Load | undefined;
/** The emulator's CPU time during this load's measured slices, in ms (null without metricsHeaders). */
let cpuMs: number | null = null;

function metricsHooks(spec: AgentSpec) {
  const headers = spec.metricsHeaders;
  if (!headers) return {};
  cpuMs = 0;
  return {
    beforeSlice: async () => void (await fetchJson(`${spec.baseUrl}/_emulator/metrics/reset`, { method: 'POST', headers })),
    afterSlice: async () => {
      const { data } = (await fetchJson(`${spec.baseUrl}/_emulator/metrics`, { headers })) as { data: Metrics };
      cpuMs! += data.cpu_user_ms + data.cpu_system_ms;
    },
  };
}
// Slices run one at a time, in the order they were asked for.
let queue = Promise.resolve();

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const msg = JSON.parse(line) as { spec?: AgentSpec; warmUp?: number; measure?: number };
    queue = queue.then(async () => {
      if (msg.spec) {
        load = new Load({ baseUrl: msg.spec.baseUrl, request: requests(msg.spec), expectStatus: msg.spec.kind === 'get' ? 200 : 201, ...metricsHooks(msg.spec) });
        print({ ready: true });
      } else if (msg.warmUp !== undefined) {
        await load!.warmUp(msg.warmUp);
        print({ done: true });
      } else if (msg.measure !== undefined) {
        await load!.measure(msg.measure);
        print({ done: true, result: load!.result() satisfies LoadResult, cpuMs });
      }
    });
  })
  .on('close', () => {
    queue = queue.then(async () => {
      await load?.close();
      process.exit(0);
    });
  });
