import { randomBytes } from 'node:crypto';
import { readConfig, updateProfile } from '../../config/file.js';
import type { Env } from '../../io.js';

/**
 * The secret `listen` signs forwards with: 43 base64url characters like an endpoint secret,
 * created on first use and kept in the profile, so the local app is configured once.
 */
export function listenSecret(profile: string, env: Env): { secret: string; created: boolean } {
  const existing = readConfig(env).profiles[profile]?.listen_secret;
  if (existing) return { secret: existing, created: false };
  const secret = randomBytes(32).toString('base64url');
  updateProfile(
    profile,
    (p) => {
      p.listen_secret = secret;
    },
    env,
  );
  return { secret, created: true };
}
