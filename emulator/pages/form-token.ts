import { storedCollection, type RecordOf } from '../store/collection.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';

// One-time form tokens. Every page form carries a token bound to what it acts on (a link, a
// mandate, a run). The first POST with a token records where its result lives, in the same
// transaction as the payment; any later POST with that token (a double click, a resubmitted
// form) is sent to that same result instead of paying again.
//
// Tokens are signed with a secret kept in the store, so a GET writes nothing and forms opened
// before a restart still work afterwards, while a token cannot be made up or moved to another
// subject.

const SECRET_ID = 'form_secret';

type SecretRecord = RecordOf<'checkout_state'>;

type SubmissionRecord = RecordOf<'checkout_submissions'>;

export const FORM_SECRETS = storedCollection('checkout_state');
export const FORM_SUBMISSIONS = storedCollection('checkout_submissions');

function secret(services: Pick<Services, 'store'>): Buffer {
  let record = services.store.get<SecretRecord>(FORM_SECRETS, SECRET_ID);
  if (!record) {
    const fresh: SecretRecord = { id: SECRET_ID, secret: randomBytes(32).toString('base64url') };
    record = services.store.transaction((tx) => tx.put<SecretRecord>(FORM_SECRETS, fresh));
  }
  return Buffer.from(record.secret, 'base64url');
}

const sign = (key: Buffer, subject: string, nonce: string) => createHmac('sha256', key).update(`${subject}\n${nonce}`).digest().subarray(0, 16);

export function issueFormToken(services: Pick<Services, 'store'>, subject: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${sign(secret(services), subject, nonce).toString('base64url')}`;
}

/** The token's nonce if it was issued by this emulator for `subject`, otherwise undefined. */
export function checkFormToken(services: Pick<Services, 'store'>, subject: string, token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  const m = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m) return undefined;
  const given = Buffer.from(m[2], 'base64url');
  const expected = sign(secret(services), subject, m[1]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[1] : undefined;
}

/** Where an earlier submission of this token went, if there was one. */
export function priorSubmission(services: Pick<Services, 'store'>, nonce: string): SubmissionRecord | undefined {
  return services.store.get<SubmissionRecord>(FORM_SUBMISSIONS, nonce);
}

export function recordSubmission(services: Pick<Services, 'stamps'>, tx: Transaction, nonce: string, subject: string, resultPath: string): void {
  tx.put<SubmissionRecord>(FORM_SUBMISSIONS, { id: nonce, subject, result_path: resultPath, created_at: services.stamps.next() });
}
