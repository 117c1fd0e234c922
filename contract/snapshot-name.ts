import { z } from 'zod';

/** A snapshot's name is its file name on every platform: no separators, no leading dot. */
export const SnapshotName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit');
