import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

// PINs (the owner's, a wallet customer's) are stored as scrypt hashes and compared in
// constant time. The cost is kept low: these are 4-6 digit test PINs on a local emulator,
// and seeding must stay fast.
const PARAMS = { N: 1024, r: 8, p: 1 };

export function hashPin(pin: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(pin, salt, 32, PARAMS).toString('base64url')}`;
}

export function verifyPin(pin: string, stored: string | undefined): boolean {
  if (!stored) return false;
  const [, salt, hash] = stored.split('$');
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(pin, Buffer.from(salt, 'base64url'), expected.length, PARAMS);
  return timingSafeEqual(actual, expected);
}
