import { SilentExit, UsageError, EXIT } from './errors.js';
import { messageOf } from '../../contract/errors.js';
import { isRecord } from '../../contract/json-path.js';

// Small value parsers shared by commands; a bad value is a usage error naming its flag.

export const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parseJsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag}: not valid JSON (${messageOf(err)}).`);
  }
  if (!isRecord(value) || Array.isArray(value)) throw new UsageError(`${flag}: must be a JSON object.`);
  return value;
}

/** A failed payment is data (exit 0) unless the caller asked --fail-on-failed. */
export function failOnFailed(flags: { failOnFailed?: boolean }, status: string): void {
  if (flags.failOnFailed && status === 'failed') throw new SilentExit(EXIT.api);
}
