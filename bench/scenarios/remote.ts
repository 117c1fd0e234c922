import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AgentLoad } from '../lib/agent.js';
import { startChild, type ChildServer } from '../lib/child.js';
import { ROUNDS } from '../lib/load.js';
import { createNetnsPair, netnsUnavailable, type NetHost, type NetnsPair } from '../lib/netns.js';
import { loadRow, rateAtLeast } from '../lib/rows.js';
import { BENCH_KEY, seedPayments } from '../lib/seed.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';

// The merchant API from another host (issue 26): what the allow list, the public URL and the
// control token cost a merchant's app that reaches the emulator over a network. Two network
// namespaces joined by a veth pair (lib/netns.ts); one built `svc emulator start` on `svc`
// (--host 0.0.0.0 --allow-host svc --public-url http://svc:<port> --control-token, 1k seeded
// payments, --rate-limit off). The same GET and POST loads as the api rows run from two
// places against that one emulator:
//   remote.<get|post>.loopback  from the emulator's own host, to 127.0.0.1 (no token needed)
//   remote.<get|post>.peer      from the `app` host, to http://svc:<port> across the link
// Each load is the load generator (lib/load.ts) in a child process started inside its
// namespace (lib/load-agent.ts), so all four are generated alike; they are measured
// interleaved in the same rounds. Target: the peer's req/s at least 95% of loopback's. Each
// row's note gives the emulator's CPU time per request, read from GET /_emulator/metrics by
// the load's own agent around each slice (the other host sends the control token for it).
// Needs root (namespaces); without it the scenario prints one row saying why and judges no
// target (its targets are added only once the rows are measured).

const PORT = 4010;
const SEEDED = 1_000;
const TARGETS: Target[] = [
  rateAtLeast('remote.get.peer', 'remote.get.loopback', 0.95, 'loopback'),
  rateAtLeast('remote.post.peer', 'remote.post.loopback', 0.95, 'loopback'),
];
const targets: Target[] = [];

interface Entry {
  id: string;
  label: string;
  load: AgentLoad;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const why = netnsUnavailable();
  if (why) return [{ id: 'remote.skipped', label: 'GET/POST from another host vs loopback', note: `skipped: ${why}` }];

  let pair: NetnsPair | undefined;
  let emulator: ChildServer<{ base_url: string }> | undefined;
  const entries: Entry[] = [];
  try {
    pair = createNetnsPair();
    const dataDir = join(ctx.tmpDir, 'emulator-remote');
    mkdirSync(dataDir, { recursive: true });
    ctx.log(`remote: seeding ${SEEDED} payments`);
    const seeded = await seedPayments(dataDir, SEEDED);
    const token = `svc_ctl_${randomBytes(24).toString('base64url')}`;
    const publicUrl = `http://${pair.svc.name}:${PORT}`;
    const args = ['bin/svc.js', 'emulator', 'start', '--json', '--quiet', '--rate-limit', 'off', '--data-dir', dataDir, '--host', '0.0.0.0', '--port', String(PORT), '--allow-host', pair.svc.name, '--public-url', publicUrl, '--control-token', token];
    ctx.log(`remote: starting the emulator on host ${pair.svc.name} (namespace ${pair.svc.ns})`);
    emulator = await startChild<{ base_url: string }>(...pair.argv(pair.svc, process.execPath, args), ctx.root);

    const run = randomBytes(6).toString('hex');
    const places: { where: string; host: NetHost; baseUrl: string; label: string; metricsHeaders: Record<string, string> }[] = [
      // Loopback callers need no token; the other host sends it to read the metrics.
      { where: 'loopback', host: pair.svc, baseUrl: `http://127.0.0.1:${PORT}`, label: 'on the emulator\'s host, 127.0.0.1', metricsHeaders: {} },
      { where: 'peer', host: pair.app, baseUrl: publicUrl, label: `from another host, http://${pair.svc.name} (veth)`, metricsHeaders: { 'svc-control-token': token } },
    ];
    for (const kind of ['get', 'post'] as const) {
      for (const place of places) {
        const load = new AgentLoad((command, argv) => pair!.argv(place.host, command, argv));
        entries.push({ id: `remote.${kind}.${place.where}`, label: `${kind === 'get' ? 'GET /v1/api/payments/{id}' : 'POST /v1/api/payment-links'} ${place.label}`, load });
        await load.start({ baseUrl: place.baseUrl, kind, key: BENCH_KEY, ids: seeded.ids, tag: `${run}-${place.where}`, metricsHeaders: place.metricsHeaders });
      }
    }

    // As measureInterleaved (lib/load.ts) does for in-process loads: warm every load up, then
    // cut the measured time into rounds the loads take turns in, rotating the order.
    ctx.log(`remote: measuring ${entries.length} loads interleaved`);
    for (const e of entries) await e.load.warmUp(ctx.warmupMs);
    for (let r = 0; r < ROUNDS; r++) {
      ctx.log(`round ${r + 1}/${ROUNDS}`);
      for (let k = 0; k < entries.length; k++) await entries[(k + r) % entries.length].load.measure(ctx.measureMs / ROUNDS);
    }
    targets.push(...TARGETS);
    // CPU time per request (the emulator's own metrics, read around each measured slice) hardly
    // moves when other processes compete for the machine, unlike req/s.
    const note = (e: Entry) => {
      const r = e.load.result();
      const cpu = e.load.cpuMs !== null && r.requests > 0 ? `emulator CPU ${(e.load.cpuMs / r.requests).toFixed(3)} ms/req` : undefined;
      const setup = e.id.endsWith('.peer') ? `emulator: --host 0.0.0.0, --allow-host ${pair!.svc.name}, --public-url, --control-token; ${SEEDED / 1000}k payments` : undefined;
      return [cpu, setup].filter(Boolean).join('; ');
    };
    return entries.map((e) => loadRow(e.id, e.label, e.load.result(), note(e)));
  } finally {
    await Promise.all(entries.map((e) => e.load.close()));
    await emulator?.stop();
    pair?.destroy();
  }
}

export const remote: Scenario = { name: 'remote', run, targets };
