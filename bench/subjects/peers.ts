import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toPublicPayment } from '../../emulator/resources/payments/domain.js';
import { LINK_FIELDS } from '../lib/bodies.js';
import { stopChild } from '../lib/child.js';
import { fetchJson, type LoadRequest } from '../lib/load.js';
import { installPeer, type PeerPackage } from '../lib/peer-install.js';
import { processCpu } from '../lib/proc-cpu.js';
import { BENCH_KEY, benchPayment } from '../lib/seed.js';
import type { BenchContext, Row, Subject, SubjectLoad } from '../lib/types.js';

// The tools a merchant would pick instead of svc, each in its default mode, measured with the
// same load generator, connections and warm-up as the emulator, interleaved with its rows
// (scenarios/api.ts): GET one payment and POST a payment link. Prism and Mockoon CLI mock svc's
// own /openapi.yaml (fetched from the emulator under test); json-server holds 1,000 payments
// shaped as svc answers them. Each is installed on demand at its pinned version
// (lib/peer-install.ts), runs on this Node, listens on 127.0.0.1, and writes its output
// (every request logged, as by default) to a file in the run's scratch folder, so the bench
// process never spends CPU reading it. A peer that cannot be installed or started gets a row
// saying why, and the others are measured. docs/performance.md shows the same table.

export interface PeerDef {
  id: string;
  name: string;
  package: PeerPackage;
  /** Its command line after the executable (docs/performance.md shows the same). */
  args(port: number, files: { openapi: string; db: string }): string[];
  /** The GET of payment `id`, and POST number `i`. */
  get(id: string): LoadRequest;
  post(i: number): LoadRequest;
}

const auth = { authorization: `Bearer ${BENCH_KEY}` };
const linkBody = JSON.stringify(LINK_FIELDS);
const run = randomBytes(6).toString('hex');
/** The requests svc itself gets, for the peers that mock its OpenAPI document. */
const asSvc = {
  get: (id: string): LoadRequest => ({ method: 'GET', path: `/v1/api/payments/${id}`, headers: auth }),
  post: (i: number): LoadRequest => ({ method: 'POST', path: '/v1/api/payment-links', headers: { ...auth, 'content-type': 'application/json', 'x-idempotency-key': `bench-${run}-${i}` }, body: linkBody }),
};

export const PEERS: PeerDef[] = [
  {
    id: 'json-server',
    name: 'json-server',
    package: { pkg: 'json-server', version: '0.17.4', bin: 'json-server' },
    args: (port, { db }) => ['--host', '127.0.0.1', '--port', String(port), db],
    get: (id) => ({ method: 'GET', path: `/payments/${id}` }),
    post: () => ({ method: 'POST', path: '/payment-links', headers: { 'content-type': 'application/json' }, body: linkBody }),
  },
  {
    id: 'prism',
    name: 'Prism',
    // 5.14.2: the newest Prism whose `engines` admit Node 20 (5.15.10 on want Node ≥ 24.14).
    package: { pkg: '@stoplight/prism-cli', version: '5.14.2', bin: 'prism' },
    args: (port, { openapi }) => ['mock', '--host', '127.0.0.1', '--port', String(port), openapi],
    ...asSvc,
  },
  {
    id: 'mockoon',
    name: 'Mockoon CLI',
    package: { pkg: '@mockoon/cli', version: '9.9.0', bin: 'mockoon-cli' },
    args: (port, { openapi }) => ['start', '--data', openapi, '--port', String(port), '--hostname', '127.0.0.1'],
    ...asSvc,
  },
];

const PAYMENTS = 1_000;
const READY_TIMEOUT_MS = 120_000;

export const peerRowId = (peer: PeerDef, kind: 'get' | 'post') => `peer.${peer.id}.${kind}`;

/** Installs and starts every peer; `openapiUrl` is the emulator's own /openapi.yaml. */
export async function startPeers(ctx: BenchContext, openapiUrl: string, peers = PEERS): Promise<Subject> {
  const dir = join(ctx.tmpDir, 'peers');
  mkdirSync(dir, { recursive: true });
  const openapi = join(dir, 'openapi.yaml');
  writeFileSync(openapi, await (await fetch(openapiUrl)).text());
  const payments = Array.from({ length: PAYMENTS }, (_, i) => toPublicPayment(benchPayment(i, PAYMENTS, Date.now())));
  const ids = payments.map((p) => p.id);
  const cacheDir = process.env.BENCH_PEERS_DIR ?? join(ctx.root, 'bench', '.cache', 'peers');
  const rows: Row[] = [];
  const loads: SubjectLoad[] = [];
  const running: ChildProcess[] = [];
  for (const peer of peers) {
    const label = `peer: ${peer.name} ${peer.package.version}`;
    const installed = await installPeer(peer.package, { cacheDir, log: ctx.log });
    if ('skipped' in installed) {
      rows.push({ id: `peer.${peer.id}`, label, note: `skipped: ${installed.skipped}` });
      continue;
    }
    // Each peer gets its own folder: json-server writes its db file on every POST, Mockoon
    // its logs under $HOME.
    const home = join(dir, peer.id);
    mkdirSync(home);
    const db = join(home, 'db.json');
    writeFileSync(db, JSON.stringify({ payments, 'payment-links': [] }));
    ctx.log(`starting ${peer.name} ${peer.package.version}`);
    const started = await startPeer(peer, installed.script, home, { openapi, db }, ids[0]);
    if ('skipped' in started) {
      rows.push({ id: `peer.${peer.id}`, label, note: `skipped: ${started.skipped}` });
      continue;
    }
    running.push(started.child);
    for (const kind of ['get', 'post'] as const) {
      const cpu = processCpu(started.child.pid!);
      loads.push({
        id: peerRowId(peer, kind),
        label: `${label}, ${kind === 'get' ? 'GET one payment' : 'POST a link'}`,
        spec: {
          baseUrl: started.base,
          request: kind === 'get' ? () => peer.get(ids[Math.floor(Math.random() * ids.length)]) : (i) => peer.post(i),
          expectStatus: kind === 'get' ? 200 : 201,
          beforeSlice: cpu.before,
          afterSlice: cpu.after,
        },
        describe: (r) => `${peer.name} CPU ${cpu.perRequestMs(r).toFixed(3)} ms/req`,
        cpuPerRequestMs: cpu.perRequestMs,
      });
    }
  }
  return {
    rows,
    loads,
    finish: async () => {
      await Promise.all(running.splice(0).map((child) => stopChild(child, () => '')));
      return [];
    },
  };
}

/** Starts `script` (with this Node) on a free port and waits until its GET answers as the load expects. */
async function startPeer(peer: PeerDef, script: string, home: string, files: { openapi: string; db: string }, someId: string): Promise<{ child: ChildProcess; base: string } | { skipped: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = join(home, 'output.log');
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, [script, ...peer.args(port, files)], { cwd: home, env: { ...process.env, HOME: home }, stdio: ['ignore', out, out] });
  closeSync(out);
  const probe = peer.get(someId);
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (child.exitCode === null && child.signalCode === null && performance.now() < deadline) {
    try {
      await fetchJson(`${base}${probe.path}`, { headers: probe.headers });
      return { child, base };
    } catch {
      await new Promise((ok) => setTimeout(ok, 250));
    }
  }
  await stopChild(child, () => '');
  const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' / ');
  return { skipped: `started but never answered GET ${probe.path} within ${READY_TIMEOUT_MS / 1000} s: ${tail}` };
}

/** A port nothing listens on now (the peers take a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => ok(port));
    });
  });
}
