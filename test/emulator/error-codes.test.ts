import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { ERROR_STATUS } from '../../emulator/errors.js';
import { allRoutes } from '../../emulator/registry.js';

// docs/spec-gaps.md lists every error code the emulator can send, with its status; this keeps
// the table and contract/errors.ts (the only codes ApiError accepts) in step, and keeps
// the codes of our own off the /v1 routes unless the spec leaves that code open.

const SPEC_CODES = [
  'UNAUTHORIZED', 'FORBIDDEN', 'BUSINESS_ACCOUNT_REQUIRED', 'VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_IN_FLIGHT', 'NOT_FOUND', 'RATE_LIMITED', 'FLEET_CARD_INACTIVE', 'CATEGORY_NOT_ALLOWED',
  'INSUFFICIENT_BALANCE', 'SPEND_LIMIT_EXCEEDED', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR',
];
/** The spec's "not shown": codes for a wrong OTP and for a link or mandate in the wrong state. */
const GAP_CODES = ['LINK_EXPIRED', 'LINK_CLOSED', 'MANDATE_NOT_ACTIVE', 'OTP_INVALID', 'OTP_EXPIRED', 'OTP_LOCKED'];

function documentedCodes(): Map<string, { status: number; source: string }> {
  const text = readFileSync(packageFile('docs/spec-gaps.md'), 'utf8');
  const section = text.slice(text.indexOf('## Every error code the emulator sends'));
  const rows = new Map<string, { status: number; source: string }>();
  for (const m of section.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| ([^|]+) \|/gm)) rows.set(m[1], { status: Number(m[2]), source: m[3].trim() });
  return rows;
}

test('the error-code table lists exactly the codes the emulator can send, with their statuses', () => {
  const rows = documentedCodes();
  assert.deepEqual([...rows.keys()].sort(), Object.keys(ERROR_STATUS).sort());
  for (const [code, { status, source }] of rows) {
    assert.equal(status, ERROR_STATUS[code as keyof typeof ERROR_STATUS], code);
    assert.equal(source === 'spec', SPEC_CODES.includes(code), `${code}: source ${source}`);
  }
});

test('/v1 routes declare only spec codes, or codes where the spec leaves the code open', () => {
  for (const route of allRoutes()) {
    for (const code of route.errors ?? []) assert.ok(SPEC_CODES.includes(code) || GAP_CODES.includes(code), `${route.method} ${route.path}: ${code}`);
  }
});
