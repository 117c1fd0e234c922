import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { packageFile } from '../../emulator/assets.js';
import { svcBin } from '../helpers/svc-process.js';

// Runs an example suite (examples/python, examples/java) the way CI and its README do: under
// the built `svc emulator exec --clock manual`, as a real process tree, to its exit code.
// A relay can stand between the emulator and the example's webhook receiver (the example
// registers EXAMPLE_WEBHOOK_URL instead of its own address, as it would behind a tunnel):
// it forwards every request unchanged, or with one hex digit of Svc-Signature changed.

export const repoRoot = packageFile('');

export interface ExampleRun {
  code: number | null;
  /** stdout and stderr, interleaved as they arrived. */
  output: string;
}

/** The example announces where its receiver listens; the relay forwards there. */
const RECEIVER_LINE = /webhook receiver listening on (http:\/\/127\.0\.0\.1:\d+\/\S*)/;
const RUN_TIMEOUT_MS = 90_000;

/** Runs `command` under `svc emulator exec --clock manual`; `onOutput` sees the output as it grows. */
export function runExample(command: string[], opts: { env?: Record<string, string>; onOutput?: (output: string) => void } = {}): Promise<ExampleRun> {
  const env: Record<string, string> = {};
  // None of the caller's SVC_* settings: exec provides the ones the suite reads.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^SVC_/.test(k)) env[k] = v;
  Object.assign(env, { PYTHONDONTWRITEBYTECODE: '1' }, opts.env);
  const child = spawn(process.execPath, [svcBin, 'emulator', 'exec', '--clock', 'manual', '--', ...command], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return untilExit(child, command.join(' '), opts.onOutput);
}

/**
 * Collects a detached child's stdout and stderr (interleaved) until it exits; past
 * RUN_TIMEOUT_MS the run fails and the child is stopped with all it started, so a hung run
 * leaves nothing behind: SIGTERM, again 5 s later, then SIGKILL to its process group 5 s after
 * that. `svc emulator exec` runs its command in a group of its own, which only exec can signal
 * as a whole: it passes the first SIGTERM on and answers the second with SIGKILL to that group.
 */
export function untilExit(child: ChildProcess, label: string, onOutput?: (output: string) => void): Promise<ExampleRun> {
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    onOutput?.(output);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return new Promise((ok, fail) => {
    const stops: NodeJS.Timeout[] = [];
    const signal = (target: number, sig: NodeJS.Signals) => {
      try {
        process.kill(target, sig);
      } catch {
        // already gone
      }
    };
    const guard = setTimeout(() => {
      signal(child.pid!, 'SIGTERM');
      stops.push(setTimeout(() => signal(child.pid!, 'SIGTERM'), 5_000));
      stops.push(setTimeout(() => signal(-child.pid!, 'SIGKILL'), 10_000));
      fail(new Error(`${label} did not finish within ${RUN_TIMEOUT_MS} ms:\n${output}`));
    }, RUN_TIMEOUT_MS);
    const settle = () => [guard, ...stops].forEach(clearTimeout);
    child.once('error', (err) => (settle(), fail(err)));
    child.once('close', (code) => {
      settle();
      ok({ code, output });
    });
  });
}

export interface Relay {
  /** The address the example registers (EXAMPLE_WEBHOOK_URL). */
  url: string;
  /** Requests forwarded so far, and how many of them had their signature changed. */
  forwarded: number;
  changed: number;
  /** Feed it the example's output: it learns the receiver's address from it. */
  watch(output: string): void;
  close(): Promise<void>;
}

/** Changes the last hex digit of the header's first v1 signature: one byte of the header, nothing else. */
export function changeOneSignatureByte(header: string): string {
  const m = /v1=[0-9a-f]{64}/.exec(header);
  if (!m) throw new Error(`no v1 signature in ${header}`);
  const at = m.index + m[0].length - 1;
  const flipped = (parseInt(header[at], 16) ^ 1).toString(16);
  return header.slice(0, at) + flipped + header.slice(at + 1);
}

export async function startRelay(mode: 'unchanged' | 'change-signature-byte'): Promise<Relay> {
  let announce: (url: URL) => void = () => {};
  const receiver = new Promise<URL>((ok) => (announce = ok));
  const relay: Relay = {
    url: '',
    forwarded: 0,
    changed: 0,
    watch(output) {
      const m = RECEIVER_LINE.exec(output);
      if (m) announce(new URL(m[1]));
    },
    close: () => new Promise((ok) => server.close(() => ok())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      // The emulator only posts after the example registered the relay, which it does after
      // its receiver listens and says where: the address is known by now.
      const target = await receiver;
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const signature = req.headers['svc-signature'];
      if (mode === 'change-signature-byte' && typeof signature === 'string') {
        headers['svc-signature'] = changeOneSignatureByte(signature);
        relay.changed++;
      }
      relay.forwarded++;
      const out = request(target, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.once('error', (err) => res.writeHead(502).end(`relay: ${err.message}`));
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return relay;
}
