import { describeSource, environmentOf, resolveTarget } from '../../config/resolve.js';
import type { FlagsOf } from '../../flags.js';
import type { CONFIG } from './flags.js';
import { configPath, PROFILE_FIELDS, profileName, readConfig, updateProfile, writeConfig, type Profile, type ProfileField } from '../../config/file.js';
import { UsageError } from '../../errors.js';
import { maskSecret } from '../../mask.js';
import { Output } from '../../output.js';
import type { CliIO } from '../../io.js';

// `svc config …`: profiles in the config file. Keys are shown masked, even under --json.

function field(name: string): ProfileField {
  if (!PROFILE_FIELDS.includes(name as ProfileField)) throw new UsageError(`unknown field "${name}": expected ${PROFILE_FIELDS.join(' or ')}.`);
  return name as ProfileField;
}

function check(f: ProfileField, value: string): void {
  if (f === 'api_key' && !environmentOf(value)) throw new UsageError('api_key must start with svc_test_ or svc_live_.');
  if (f === 'base_url' && !/^https?:\/\/[^/]/.test(value)) throw new UsageError('base_url must be an http:// or https:// URL.');
}

const shown = (f: string, value: string | undefined) => (value === undefined ? undefined : f === 'api_key' || f === 'listen_secret' ? maskSecret(value) : value);

export async function set([name, value]: string[], flags: FlagsOf<typeof CONFIG.set>, io: CliIO): Promise<void> {
  const f = field(name);
  check(f, value);
  const profile = profileName(flags.profile, readConfig(io.env), io.env);
  const path = updateProfile(
    profile,
    (p) => {
      p[f] = f === 'base_url' ? value.replace(/\/+$/, '') : value;
    },
    io.env,
  );
  io.stderr.write(`${f} of profile "${profile}" set to ${shown(f, value)} (${path})\n`);
}

export async function get([name]: string[], flags: FlagsOf<typeof CONFIG.get>, io: CliIO): Promise<void> {
  const f = field(name);
  const config = readConfig(io.env);
  const profile = profileName(flags.profile, config, io.env);
  const value = config.profiles[profile]?.[f];
  if (value === undefined) throw new UsageError(`${f} is not set in profile "${profile}".`);
  io.stdout.write(`${shown(f, value)}\n`);
}

export async function list(_a: string[], flags: FlagsOf<typeof CONFIG.list>, io: CliIO): Promise<void> {
  const config = readConfig(io.env);
  const current = profileName(undefined, config, io.env);
  const masked = Object.fromEntries(
    Object.entries(config.profiles).map(([name, p]) => [name, Object.fromEntries(Object.entries(p).map(([k, v]) => [k, shown(k, v as string)])) as Profile]),
  );
  const out = new Output(io, Boolean(flags.json));
  out.result({ current_profile: current, profiles: masked }, `Profiles (${configPath(io.env)})`, () =>
    out.table(
      ['', 'PROFILE', 'ENV', 'API KEY', 'BASE URL'],
      Object.entries(config.profiles).map(([name, p]) => [
        name === current ? '*' : '',
        name,
        p.api_key ? (environmentOf(p.api_key) ?? '?').toUpperCase() : '',
        shown('api_key', p.api_key) ?? '',
        p.base_url ?? '',
      ]),
    ),
  );
}

export async function use([name]: string[], _flags: unknown, io: CliIO): Promise<void> {
  const config = readConfig(io.env);
  if (!config.profiles[name]) throw new UsageError(`no profile "${name}" (svc config list).`);
  config.current_profile = name;
  writeConfig(config, io.env);
  io.stderr.write(`current profile: ${name}\n`);
}

export async function path(_a: string[], _flags: unknown, io: CliIO): Promise<void> {
  io.stdout.write(`${configPath(io.env)}\n`);
}

export async function show(_a: string[], flags: FlagsOf<typeof CONFIG.show>, io: CliIO): Promise<void> {
  const t = resolveTarget(flags, { env: io.env, cwd: io.cwd });
  const data = {
    profile: t.profile,
    environment: t.environment,
    base_url: t.baseUrl,
    base_url_source: t.baseUrlSource,
    api_key: maskSecret(t.apiKey),
    api_key_source: t.apiKeySource,
  };
  const out = new Output(io, Boolean(flags.json), t.environment);
  out.result(data, 'Target', () =>
    out.kv([
      ['base url', `${data.base_url}  (${describeSource(t.baseUrlSource)})`],
      ['api key', `${data.api_key}  (${describeSource(t.apiKeySource)})`],
      ['profile', data.profile],
    ]),
  );
}
