import type { z } from 'zod';
import { UsageError } from './errors.js';
import { flagName } from './flags.js';

// Flag values checked on this side with the very zod schemas the API validates the request
// with (imported from emulator/resources/*/schema.ts), so a bad value is a usage error (exit
// 2) naming the flag, and nothing is sent. Imported only by commands that have such flags:
// zod stays off the cold start of the others.

/** `checks` maps a flag's property (expiresAt) to its schema; absent values are skipped. */
export function checkFlags(flags: object, checks: Record<string, z.ZodType>): void {
  const problems: string[] = [];
  for (const [prop, schema] of Object.entries(checks)) {
    const value = (flags as Record<string, unknown>)[prop];
    if (value === undefined) continue;
    const parsed = schema.safeParse(value);
    if (!parsed.success) problems.push(`${flagName(prop)}: ${JSON.stringify(value)} is not valid: ${hint(parsed.error.issues[0])}`);
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n       '));
}

/** zod's "Invalid ISO datetime" (or a union's "Invalid input") means little without an example. */
function hint(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid value';
  const formats = issue.code === 'invalid_union' ? issue.errors.flat().map((i) => (i.code === 'invalid_format' ? i.format : '')) : issue.code === 'invalid_format' ? [issue.format] : [];
  if (formats.includes('datetime') && formats.includes('date')) return 'expected an ISO-8601 timestamp (2026-11-21T12:00:00Z) or a date (2026-11-21)';
  if (formats.includes('datetime')) return 'expected an ISO-8601 timestamp with an offset, e.g. 2026-11-21T12:00:00Z';
  return issue.message;
}
