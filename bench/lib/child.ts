import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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

export async function stopChild(child: ChildProcess, stderr: () => string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`bench: server exited with ${code ?? signal}\n${stderr()}\n`);
}
