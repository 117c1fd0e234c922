import type { z } from 'zod';

// One wording for validation problems, used by the emulator's 422s and the CLI's usage errors,
// so a bad flag reads the same as the API's answer to it.

/** "amount: must be an integer; metadata: ..." — every message names its field. */
export function describeZodError(err: z.ZodError, root = 'body'): string {
  return err.issues
    .map((issue) => {
      const path = issue.path.length ? issue.path.map(String).join('.') : root;
      if (issue.code === 'unrecognized_keys') {
        // Named the same way as refuseUnexpectedQuery: `query: unknown parameter "x"`, `body: unknown field "x"`.
        const noun = root === 'query' && !issue.path.length ? 'parameter' : 'field';
        return `${path}: unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      }
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}
