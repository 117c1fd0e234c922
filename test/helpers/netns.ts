import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { IncomingHttpHeaders } from 'node:http';
import { createNetnsPair, netnsUnavailable, type NetHost, type NetnsPair } from '../../bench/lib/netns.js';
import { closed, onLines, startSvc, svcBin, type ReadyLine } from './svc-process.js';

// The network tests' two hosts (bench/lib/netns.ts makes the namespaces) and the processes
// that run on them: the built emulator on `svc`, and on `app` the peer (net-peer.ts: the
// merchant's client and its webhook receiver) and the built CLI.

export { createNetnsPair, netnsUnavailable, type NetHost, type NetnsPair };

const REQUEST_TIMEOUT_MS = 15_000;
const PEER_SCRIPT = fileURLToPath(new URL('./net-peer.js', import.meta.url));

export type EmulatorReady = ReadyLine;

export interface NetEmulator {
  ready: EmulatorReady;
  stderr(): string;
  stop(): Promise<void>;
}

/** Sends SIGTERM (then SIGKILL after 10 s) and waits for the exit; no-op once it has exited. */
async function stopChild(child: ChildProcess, done: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(guard);
}

/** `svc emulator start --json …args` on `host`; resolves with its ready line. */
export async function startEmulatorOn(pair: NetnsPair, host: NetHost, args: string[]): Promise<NetEmulator> {
  // `ip netns exec` execs the command in place (no fork), so the child is node itself and
  // receives the signals sent to it.
  const svc = await startSvc(args, undefined, { wrap: (command, argv) => pair.argv(host, command, argv) });
  return { ready: svc.ready, stderr: svc.stderr, stop: () => stopChild(svc.child, svc.done) };
}

export interface PeerResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

export interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The sender's address as the receiver's socket saw it. */
  peer: string;
}

export interface PeerRequest {
  /** The Host header to send instead of `<host>:<port>` (e.g. a name the emulator does not allow). */
  hostHeader?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Peer {
  /** One HTTP request from the peer's host to `to` (a hostname both hosts files know) and port. */
  request(method: string, to: { host: string; port: number }, path: string, opts?: PeerRequest): Promise<PeerResponse>;
  /** Every request the receiver got so far. */
  received: Received[];
  /** Resolves once the receiver has had `n` requests. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** The peer process on `host`; with `listenPort`, also the webhook receiver on that port. */
export function startPeer(pair: NetnsPair, host: NetHost, listenPort?: number): Promise<Peer> {
  const [command, argv] = pair.argv(host, process.execPath, [PEER_SCRIPT, ...(listenPort === undefined ? [] : ['--listen', String(listenPort)])]);
  const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const done = closed(child);
  const pending = new Map<number, { ok: (r: PeerResponse) => void; fail: (e: Error) => void }>();
  const received: Received[] = [];
  const waiters: Array<{ n: number; ok: () => void }> = [];
  let nextId = 0;
  return new Promise((ready, failStart) => {
    child.once('exit', (code) => {
      const why = new Error(`net-peer exited (${code}): ${err}`);
      failStart(why);
      for (const p of pending.values()) p.fail(why);
    });
    onLines(child, (line) => {
      const msg = JSON.parse(line);
      if (msg.ready) {
        ready(peer);
      } else if (msg.received) {
        received.push(msg.received as Received);
        for (const w of [...waiters]) if (received.length >= w.n) w.ok();
      } else {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p?.fail(new Error(`net-peer request ${msg.id}: ${msg.error}`));
        else p?.ok({ status: msg.status, headers: msg.headers, body: msg.body, json: parseJson(msg.body) });
      }
    });
    const peer: Peer = {
      request(method, to, path, opts = {}) {
        const id = ++nextId;
        const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        const headers = { ...(body !== undefined && typeof opts.body !== 'string' ? { 'content-type': 'application/json' } : {}), ...opts.headers };
        return new Promise((ok, fail) => {
          // A give-up, not a measurement: an answer that never ends (a stream let through) fails here.
          const timer = setTimeout(() => (pending.delete(id), fail(new Error(`${method} ${path}: no complete answer after ${REQUEST_TIMEOUT_MS} ms`))), REQUEST_TIMEOUT_MS);
          pending.set(id, { ok: (r) => (clearTimeout(timer), ok(r)), fail: (e) => (clearTimeout(timer), fail(e)) });
          child.stdin!.write(`${JSON.stringify({ id, method, host: to.host, port: to.port, path, hostHeader: opts.hostHeader, headers, body })}\n`);
        });
      },
      received,
      waitFor(n, timeoutMs = 20_000) {
        if (received.length >= n) return Promise.resolve(received);
        return new Promise((ok, fail) => {
          const timer = setTimeout(() => fail(new Error(`receiver: ${received.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
          waiters.push({ n, ok: () => (clearTimeout(timer), ok(received)) });
        });
      },
      async close() {
        child.stdin!.end();
        await stopChild(child, done);
      },
    };
  });
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The built `svc …` on `host`, to completion, in `cwd`, with only `env` beyond PATH and HOME. */
export function runSvcOn(pair: NetnsPair, host: NetHost, args: string[], opts: { cwd: string; env?: Record<string, string> }): { status: number | null; stdout: string; stderr: string } {
  const [command, argv] = pair.argv(host, process.execPath, [svcBin, ...args]);
  // No SVC_* of the caller's (a token or base URL there would decide the result), no colour.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? opts.cwd, NO_COLOR: '1', ...opts.env };
  const r = spawnSync(command, argv, { cwd: opts.cwd, env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
