import { UsageError } from '../errors.js';
import { parseControlToken } from '../../../contract/network.js';
import type { Env } from '../io.js';
import { profileName, readConfig, type ConfigFile } from './file.js';
import { defaultTestKey, discoverEmulator, discoveryPlaces, emulatorUrl, type DiscoveredEmulator } from './discover.js';
import { messageOf } from '../../../contract/errors.js';

// Where a command sends its requests, and with which key. Each value is taken from the first
// source that has it: flag > environment (SVC_API_KEY, SVC_BASE_URL) > profile > an emulator
// running from this folder. A profile named on the command line (--profile) is a flag: its
// values beat the environment's, so `--profile live` never sends its key to SVC_BASE_URL. The discovered emulator's key is used only when the base URL also
// came from it, so a profile's live host never receives an emulator key (or the reverse).

type Source = 'flag' | 'env' | 'profile' | 'emulator';

interface TargetFlags {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  /** --control-token: what an emulator on another host asks of its control surfaces' callers. */
  controlToken?: string;
}

interface ResolveOptions {
  /** `svc login --profile new` creates the profile; every other command needs it to exist. */
  newProfile?: boolean;
  /** The command's environment (SVC_*, the config dir) and folder (emulator discovery). */
  env: Env;
  cwd: string;
}

export interface Target {
  baseUrl: string;
  baseUrlSource: Source;
  apiKey: string;
  apiKeySource: Source;
  environment: 'test' | 'live';
  profile: string;
  config: ConfigFile;
  emulator?: DiscoveredEmulator;
  /** The control token to offer the emulator's control surfaces, if any (flag > env > discovery). */
  controlToken?: string;
}

/** No base URL from any source yet: what `status --wait` waits out while a background start writes its discovery file. */
export class NoBaseUrl extends UsageError {}

export const environmentOf = (key: string): 'test' | 'live' | undefined =>
  key.startsWith('svc_test_') ? 'test' : key.startsWith('svc_live_') ? 'live' : undefined;

/** The base URL alone (the control API needs no key). */
export function resolveBaseUrl(flags: TargetFlags, { newProfile = false, env, cwd }: ResolveOptions) {
  const config = readConfig(env);
  const profile = profileName(flags.profile, config, env);
  const fromProfile = config.profiles[profile];
  if (flags.profile !== undefined && !fromProfile && !newProfile) throw new UsageError(`no profile "${flags.profile}" in the config file (svc config list).`);
  let baseUrl: string | undefined;
  let source: Source | undefined;
  const explicitProfile = flags.profile !== undefined;
  if (flags.baseUrl) [baseUrl, source] = [flags.baseUrl, 'flag'];
  else if (explicitProfile && fromProfile?.base_url) [baseUrl, source] = [fromProfile.base_url, 'profile'];
  else if (env.SVC_BASE_URL) [baseUrl, source] = [env.SVC_BASE_URL, 'env'];
  else if (fromProfile?.base_url) [baseUrl, source] = [fromProfile.base_url, 'profile'];
  const emulator = source === undefined ? discoverEmulator(cwd, env) : undefined;
  if (emulator) [baseUrl, source] = [emulatorUrl(emulator), 'emulator'];
  if (!baseUrl || !source) {
    throw new NoBaseUrl(`no base URL: pass --base-url, set SVC_BASE_URL, save one with \`svc config set base_url …\`, or start the emulator (svc emulator start). No running emulator was found at ${discoveryPlaces(cwd, env)}.`);
  }
  checkUrl(baseUrl, source);
  // The discovered token goes only to the emulator it was discovered with.
  const controlToken = flags.controlToken ?? envControlToken(env) ?? (source === 'emulator' ? emulator?.control_token ?? undefined : undefined);
  return { baseUrl: baseUrl.replace(/\/+$/, ''), source, profile, config, emulator, controlToken };
}

export function resolveTarget(flags: TargetFlags, options: ResolveOptions): Target {
  const { env } = options;
  const { baseUrl, source: baseUrlSource, profile, config, emulator, controlToken } = resolveBaseUrl(flags, options);
  const fromProfile = config.profiles[profile];
  let apiKey: string | undefined;
  let apiKeySource: Source | undefined;
  if (flags.apiKey) [apiKey, apiKeySource] = [flags.apiKey, 'flag'];
  else if (flags.profile !== undefined && fromProfile?.api_key) [apiKey, apiKeySource] = [fromProfile.api_key, 'profile'];
  else if (env.SVC_API_KEY) [apiKey, apiKeySource] = [env.SVC_API_KEY, 'env'];
  else if (fromProfile?.api_key) [apiKey, apiKeySource] = [fromProfile.api_key, 'profile'];
  else if (emulator) [apiKey, apiKeySource] = [defaultTestKey(emulator), 'emulator'];
  if (!apiKey || !apiKeySource) {
    throw new UsageError('no API key: pass --api-key, set SVC_API_KEY, or save one with `svc login --api-key …`.');
  }
  const environment = environmentOf(apiKey);
  if (!environment) throw new UsageError(`the API key from ${describeSource(apiKeySource)} does not start with svc_test_ or svc_live_.`);
  return { baseUrl, baseUrlSource, apiKey, apiKeySource, environment, profile, config, emulator, controlToken };
}

function envControlToken(env: Env): string | undefined {
  if (!env.SVC_CONTROL_TOKEN) return undefined;
  try {
    return parseControlToken(env.SVC_CONTROL_TOKEN);
  } catch (err) {
    throw new UsageError(`SVC_CONTROL_TOKEN ${messageOf(err)}.`);
  }
}

export function describeSource(source: Source): string {
  return { flag: 'the command line', env: 'the environment', profile: 'the profile', emulator: 'the running emulator (.svc/emulator.json)' }[source];
}

function checkUrl(url: string, source: Source): void {
  if (!URL.canParse(url)) throw new UsageError(`base URL "${url}" (from ${describeSource(source)}) is not a URL.`);
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`base URL "${url}" must be http:// or https://.`);
}
