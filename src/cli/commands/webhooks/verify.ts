import { readFileSync } from 'node:fs';
import { verifySignature } from '../../../../contract/signature.js';
import { EXIT, SilentExit, UsageError } from '../../errors.js';
import { Output } from '../../output.js';
import type { CliIO, InStream } from '../../io.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';

// `svc webhooks verify`: offline, with the same function merchant servers import. The body
// is read as raw bytes (a file or stdin), never re-encoded. Exit 0 valid, 1 invalid.

type Flags = FlagsOf<typeof WEBHOOKS.verify>;

export async function run(_a: string[], flags: Flags, io: CliIO): Promise<void> {
  if (flags.secret === '') throw new UsageError('--secret is empty: give the endpoint secret (an empty key never verifies).');
  const body = flags.bodyFile !== undefined ? readBodyFile(flags.bodyFile) : await readStdin(io.stdin);
  const now = Math.floor((io.now?.() ?? Date.now()) / 1000);
  const verdict = verifySignature({ secret: flags.secret, header: flags.header, body, toleranceSeconds: flags.tolerance, now });
  const data = verdict.ok
    ? { valid: true, reason: null, message: signedWhen(now - verdict.timestamp), timestamp: verdict.timestamp }
    : { valid: false, reason: verdict.reason, message: verdict.message, timestamp: null };
  const out = new Output(io, Boolean(flags.json));
  out.result(data, verdict.ok ? out.c.green('✓ valid signature') : out.c.red(`✗ invalid signature: ${data.reason}`), () => out.kv([['detail', data.message]]));
  if (!verdict.ok) throw new SilentExit(EXIT.api);
}

/** How long ago the signature was made; a sender whose clock runs ahead signs "in the future". */
const signedWhen = (ageSeconds: number) => (ageSeconds < 0 ? `signed ${-ageSeconds} s in the future` : `signed ${ageSeconds} s ago`);

function readBodyFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(`--body-file: cannot read ${path} (${codeOf(err) ?? messageOf(err)}).`);
  }
}

async function readStdin(stdin: InStream): Promise<Buffer> {
  if (stdin.isTTY) throw new UsageError('missing --body-file: give the raw body as a file, or pipe it on stdin.');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
