import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SCOPES } from '../../../contract/scopes.js';
import type { Env } from '../io.js';
import { codeOf } from '../../../contract/errors.js';

// Finding a running emulator: `svc emulator start` writes <data dir>/emulator.json ({base_url,
// keys, pid, …}) while it runs and removes it on exit. SVC_DATA_DIR names the data dir;
// otherwise the CLI looks for .svc/emulator.json in the current folder and then in each
// folder above it (as git finds .git), so a command run from src/ or from an app inside a
// monorepo finds the emulator started at the project's root. A file left behind by a killed
// emulator is ignored when its pid is gone.

export interface DiscoveredEmulator {
  /** The base URL it hands out (--public-url, or its listening address). */
  base_url: string;
  /** How a command on this machine reaches it (loopback when it listens on every interface). */
  local_url?: string;
  /** The token other hosts need for its control surfaces (present when one is in force). */
  control_token?: string | null;
  checkout_url?: string;
  data_dir?: string;
  pid?: number;
  keys: { name: string; key: string; environment: 'test' | 'live'; scopes: string[]; merchant_id: string; revoked: boolean }[];
  file: string;
}

export function discoverEmulator(cwd: string, env: Env): DiscoveredEmulator | undefined {
  if (env.SVC_DATA_DIR) return readDiscovery(resolve(cwd, env.SVC_DATA_DIR, 'emulator.json'));
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = readDiscovery(join(dir, '.svc', 'emulator.json'));
    if (found) return found;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Where discovery looked, for the "no emulator found" message. */
export function discoveryPlaces(cwd: string, env: Env): string {
  if (env.SVC_DATA_DIR) return `SVC_DATA_DIR (${resolve(cwd, env.SVC_DATA_DIR, 'emulator.json')})`;
  return `.svc/emulator.json in ${resolve(cwd)} or any folder above it (or set SVC_DATA_DIR to the emulator's data dir)`;
}

function readDiscovery(file: string): DiscoveredEmulator | undefined {
  let info: DiscoveredEmulator;
  try {
    info = { ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<DiscoveredEmulator, 'file'>), file };
  } catch {
    return undefined;
  }
  if (typeof info.base_url !== 'string' || !Array.isArray(info.keys)) return undefined;
  if (typeof info.pid === 'number' && !pidAlive(info.pid)) return undefined;
  return info;
}

/** Where a command on this machine sends its requests: the loopback URL when there is one. */
export const emulatorUrl = (info: DiscoveredEmulator): string => (typeof info.local_url === 'string' ? info.local_url : info.base_url);

/** The key the CLI uses with a discovered emulator: its first live-able test key with every scope. */
export function defaultTestKey(info: DiscoveredEmulator): string | undefined {
  return info.keys.find((k) => k.environment === 'test' && !k.revoked && SCOPES.every((s) => k.scopes.includes(s)))?.key;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return codeOf(err) === 'EPERM';
  }
}
