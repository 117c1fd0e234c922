import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCOPES } from '../../../emulator/schema/scopes.js';

// Finding an emulator started from this folder: `svc emulator start` writes
// <data dir>/emulator.json ({base_url, keys, pid, …}) while it runs and removes it on exit. A
// file left behind by a killed emulator is ignored when its pid is gone.

export interface DiscoveredEmulator {
  base_url: string;
  checkout_url?: string;
  data_dir?: string;
  pid?: number;
  keys: { name: string; key: string; environment: 'test' | 'live'; scopes: string[]; merchant_id: string; revoked: boolean }[];
  file: string;
}

export function discoverEmulator(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): DiscoveredEmulator | undefined {
  const file = resolve(cwd, env.SVC_DATA_DIR ?? '.svc', 'emulator.json');
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
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
