import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { Env } from '../io.js';
import { messageOf } from '../../../contract/errors.js';

// The config file: named profiles in $XDG_CONFIG_HOME/svc/config.json (or
// ~/.config/svc/config.json). It holds API keys, so the directory is 0700 and the file 0600,
// written to a temp file and renamed so a crash never leaves half a file. Every function takes
// the environment it reads XDG_CONFIG_HOME, HOME and SVC_PROFILE from (the command's IO).

export interface Profile {
  api_key?: string;
  base_url?: string;
  /** Signs what `svc webhooks listen` forwards; generated once, stable per profile. */
  listen_secret?: string;
}

export interface ConfigFile {
  /** The profile used when neither --profile nor SVC_PROFILE names one. */
  current_profile?: string;
  profiles: Record<string, Profile>;
}

export const PROFILE_FIELDS = ['api_key', 'base_url'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
const DEFAULT_PROFILE = 'default';

export function configDir(env: Env): string {
  // node:os only when HOME is unset (os.homedir() reads HOME first too): one built-in fewer at each start.
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config'), 'svc');
}

export const configPath = (env: Env) => join(configDir(env), 'config.json');

export function readConfig(env: Env): ConfigFile {
  const path = configPath(env);
  if (!existsSync(path)) return { profiles: profileTable({}) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`${path} is not valid JSON (${messageOf(err)}); fix or delete it.`);
  }
  const file = parsed as Partial<ConfigFile>;
  if (!file || typeof file !== 'object' || (file.profiles !== undefined && typeof file.profiles !== 'object')) {
    throw new UsageError(`${path} does not look like an svc config file; fix or delete it.`);
  }
  return { current_profile: file.current_profile, profiles: profileTable(file.profiles ?? {}) };
}

/**
 * Profiles by name, in an object without a prototype: a profile named `constructor` or
 * `__proto__` is looked up and stored as its own entry, never found among what every object
 * inherits (`__proto__` would have set Object.prototype's fields and saved nothing).
 */
const profileTable = (profiles: Record<string, Profile>): Record<string, Profile> => Object.assign(Object.create(null) as Record<string, Profile>, profiles);

export function writeConfig(config: ConfigFile, env: Env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  chmodSync(path, 0o600); // an older file may have been created with looser bits
  return path;
}

/** The profile a command uses: --profile, then SVC_PROFILE, then the file's current profile. */
export function profileName(flag: string | undefined, config: ConfigFile, env: Env): string {
  return flag ?? env.SVC_PROFILE ?? config.current_profile ?? DEFAULT_PROFILE;
}

export function updateProfile(name: string, change: (profile: Profile) => void, env: Env): string {
  const config = readConfig(env);
  const profile = (config.profiles[name] ??= {});
  change(profile);
  return writeConfig(config, env);
}
