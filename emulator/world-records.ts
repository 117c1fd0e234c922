import { RECORD_SCHEMAS, worldProblems } from '../contract/records/index.js';
import { ApiError } from './errors.js';

// A restored world is checked against the record schemas of contract/records/, the very types
// the emulator's collections hold (store/collection.ts RecordOf): one writing of each shape.

/** The collections a restored world is checked for, by name (a test compares them with the registry's). */
export const checkedCollections = (): readonly string[] => Object.keys(RECORD_SCHEMAS);

/**
 * Refuses a world that must not replace the current one (422 VALIDATION_ERROR naming each
 * problem's JSON path); the caller has changed nothing yet.
 */
export function refuseBadWorld(collections: Record<string, readonly unknown[]>): void {
  const problems = worldProblems(collections);
  if (problems.length > 0) throw new ApiError('VALIDATION_ERROR', `The snapshot was refused; the world was left as it was. ${problems.join('; ')}.`);
}
