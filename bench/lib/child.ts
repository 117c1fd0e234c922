import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

// Every server the bench measures runs in its own process, so the load generator (this
// process) and the server never share an event loop. A server announces itself with one
// JSON line on stdout (the emulator's `--json` ready line; the references print the same
// shape), which also tells how long it took to become ready.

export interface ChildServer<Info> {
  info: Info;
  /** Spawn to ready line, in ms. */
  readyMs: number;
  /** The process itself (the long-run scenario kill -9s it). */
  child: ChildProcess;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 120_000;

export async function startChild<Info extends { base_url: string }>(command: string, args: string[], cwd: string): Promise<ChildServer<Info>> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<Info>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} ${args.join(' ')}: no ready line after ${READY_TIMEOUT_MS} ms\n${stderr}`)), READY_TIMEOUT_MS);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        ok(JSON.parse(line) as Info);
      } catch {
        fail(new Error(`${command} ${args.join(' ')}: ready line is not JSON: ${line}\n${stderr}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before it was ready\n${stderr}`));
    });
  });
  const info = await ready;
  const readyMs = performance.now() - t0;
  return { info, readyMs, child, stop: () => stopChild(child, () => stderr) };
}

/**
 * The processes below `pid` (Linux's /proc; none where it is missing). `npm start` runs its script
 * through `sh -c`, and when npm passes SIGTERM on, sh exits without passing it to node: the
 * emulator lived on, holding its port, the bench's pipes and so the bench itself.
 */
function descendants(pid: number | undefined): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return children.flatMap((c) => [c, ...descendants(c)]);
  } catch {
    return [];
  }
}

export async function stopChild(child: ChildProcess, stderr: () => string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const below = descendants(child.pid);
  child.kill('SIGTERM');
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone with its parent.
    }
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`bench: server exited with ${code ?? signal}\n${stderr()}\n`);
}
