import type { ControlApi } from '../../../client/control.js';
import { resolveTarget } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import type { CliIO } from '../../io.js';
import type { FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';

// Control routes take a merchant id; the CLI derives it from the API key in use (looked up
// in the emulator's key list) unless --merchant names one.

export type MerchantFlags = FlagsOf<typeof EMULATOR.merchant>;

export async function merchantScope(control: ControlApi, flags: MerchantFlags, io: CliIO): Promise<{ merchantId: string; environment?: 'test' | 'live' }> {
  const environment = flags.environment === undefined ? undefined : checkEnvironment(flags.environment);
  if (flags.merchant) return { merchantId: flags.merchant, environment };
  let key: string;
  let keyEnvironment: 'test' | 'live';
  try {
    ({ apiKey: key, environment: keyEnvironment } = resolveTarget(flags, { env: io.env, cwd: io.cwd }));
  } catch {
    throw new UsageError('missing --merchant: no API key to take the merchant from.');
  }
  const { data } = await control.keys();
  const match = data.keys.find((k) => k.key === key);
  if (!match) throw new UsageError('missing --merchant: the API key in use is not one of this emulator\'s keys.');
  return { merchantId: match.merchant_id, environment: environment ?? keyEnvironment };
}

export function checkEnvironment(value: string): 'test' | 'live' {
  if (value !== 'test' && value !== 'live') throw new UsageError(`--environment: expected test or live, got "${value}".`);
  return value;
}
