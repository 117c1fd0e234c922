import { readdirSync, readFileSync } from 'node:fs';
import { codeOf } from '../../../../contract/errors.js';

// The process group `svc emulator exec` runs its command in (the command is spawned detached,
// so it leads a session and group of its own). `npm test` → sh → node → workers all share it:
// a signal sent to -pgid reaches every one of them, not only npm, and the emulator waits until
// none is left before it stops.

/** Members still running: a member that exited but is not reaped yet (a zombie) is not. */
function runningMembers(pgid: number): number[] | undefined {
  // Only Linux lists them (/proc). An init that does not reap orphans (PID 1 in many
  // containers and sandboxes; svc itself when it runs as PID 1) leaves a group's exited
  // members as zombies forever, and kill(-pgid, 0) still finds them.
  if (process.platform !== 'linux') return undefined;
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we listed
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
  }
  return members;
}

/** Whether any member of the group is still running (undefined members: unknown which, but some). */
export function groupRunning(pgid: number): { running: boolean; members?: number[] } {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    // EPERM: a member exists that we may not signal (it changed its user): still running.
    if (codeOf(err) === 'ESRCH') return { running: false };
  }
  const members = runningMembers(pgid);
  return { running: members === undefined || members.length > 0, members };
}

/** Sends `signal` to every member of the group; false if none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Polls until no member runs or `ms` passed; true when the group is gone. */
async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!groupRunning(pgid).running) return true;
    if (Date.now() >= until) return false;
    await sleep(25);
  }
}

const KILL_MS = 2_000;

const described = (members: number[] | undefined) => (members ? `${members.length} process${members.length === 1 ? '' : 'es'} (pid ${members.join(', ')})` : 'processes');

/**
 * After the command (the group's leader) exited: waits for the rest of its group. Members still
 * running `ownMs` later are leftovers (a server a test never closed, a worker that outlived its
 * runner): they get SIGTERM, then SIGKILL `stopMs` later. Each step is reported on `warn`.
 */
export async function reapGroup(pgid: number, warn: (line: string) => void, { ownMs, stopMs }: { ownMs: number; stopMs: number }): Promise<void> {
  if (await waitGone(pgid, ownMs)) return;
  warn(`${described(groupRunning(pgid).members)} the command started still running after it exited: sent SIGTERM`);
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, stopMs)) return;
  warn(`${described(groupRunning(pgid).members)} still running ${stopMs / 1000} s after SIGTERM: sent SIGKILL`);
  signalGroup(pgid, 'SIGKILL');
  if (await waitGone(pgid, KILL_MS)) return;
  warn(`${described(groupRunning(pgid).members)} survived SIGKILL (uninterruptible?): stopping the emulator anyway`);
}
