import { randomBytes } from 'node:crypto';
import { readConfig, updateProfile } from '../../config/file.js';

/**
 * The secret `listen` signs forwards with: 43 base64url characters like an endpoint secret,
 * created on first use and kept in the profile, so the local app is configured once.
 */
export function listenSecret(profile: string): { secret: string; created: boolean } {
  const existing = readConfig().profiles[profile]?.listen_secret;
  if (existing) return { secret: existing, created: false };
  const secret = randomBytes(32).toString('base64url');
  updateProfile(profile, (p) => {
    p.listen_secret = secret;
  });
  return { secret, created: true };
}
