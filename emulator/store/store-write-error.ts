import { codeOf, messageOf } from '../../contract/errors.js';

// A commit the disk refused. Memory was rolled back to match the journal, so nothing of the
// transaction stands; the HTTP layer answers it as 503 SERVICE_UNAVAILABLE with `reason`.

/**
 * The Retry-After of a 503 for a refused write. A full or read-only disk is mended by a person,
 * not in the next second: 5 s makes the spec's five attempts span about 20 s instead of 7.5 s.
 */
export const STORE_RETRY_AFTER_SECONDS = 5;

export class StoreWriteError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'StoreWriteError';
  }

  static from(err: unknown, what: string): StoreWriteError {
    if (err instanceof StoreWriteError) return err;
    const code = codeOf(err);
    return new StoreWriteError(code, `${what}: ${describeFsCode(code, messageOf(err))}`, { cause: err });
  }
}

export function describeFsCode(code: string | undefined, message = 'unknown error'): string {
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full (ENOSPC); free some space and retry';
    case 'EDQUOT':
      return 'the disk quota is exhausted (EDQUOT); free some space and retry';
    case 'EROFS':
      return 'the data dir is on a read-only filesystem (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `no permission to write the data dir (${code})`;
    case 'EIO':
      return 'the disk reported an I/O error (EIO)';
    default:
      return code ? `${code}: ${message}` : message;
  }
}
