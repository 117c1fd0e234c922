import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../../config/file.js';
import type { Env } from '../../io.js';

// The local log of what `svc webhooks listen` forwarded, for `svc webhooks replay`: one JSON
// line per forward in the config dir (0600: bodies may hold customer data). It is trimmed to
// the newest KEEP entries when it grows past twice that.

interface LoggedDelivery {
  delivery_id: string;
  event_id: string;
  type: string;
  environment: string;
  /** The raw body, exactly as forwarded (re-signed on replay). */
  body: string;
  /** Headers from the sender that were passed on (live receiver mode). */
  headers?: Record<string, string>;
  forward_url: string;
  received_at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

const KEEP = 1000;

export const logPath = (env: Env) => join(configDir(env), 'listen-log.jsonl');

export function appendLog(entry: LoggedDelivery, env: Env): void {
  const path = logPath(env);
  mkdirSync(configDir(env), { recursive: true, mode: 0o700 });
  const fresh = !existsSync(path);
  appendFileSync(path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  if (fresh) chmodSync(path, 0o600);
  // Cheap check first: only a big file is read back for trimming.
  if (statSync(path).size > 4 * 1024 * 1024) trim(path);
}

function trim(path: string): void {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  if (lines.length > 2 * KEEP) writeFileSync(path, `${lines.slice(-KEEP).join('\n')}\n`, { mode: 0o600 });
}

/** The newest logged forward of this delivery id (or event id). */
export function findLogged(id: string, env: Env): LoggedDelivery | undefined {
  const path = logPath(env);
  if (!existsSync(path)) return undefined;
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const entry = JSON.parse(lines[i]) as LoggedDelivery;
      if (entry.delivery_id === id || entry.event_id === id) return entry;
    } catch {
      /* a torn last line after a crash */
    }
  }
  return undefined;
}
