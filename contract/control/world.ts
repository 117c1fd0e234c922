import { z } from 'zod';
import { SnapshotName } from '../snapshot-name.js';

// The world as a whole: a snapshot (every record of every collection), what the snapshot routes
// answer, and the wording of a refused snapshot — one for the control API, the testing API's
// restore() and `svc emulator start --restore`.

export const SNAPSHOT_FORMAT = 1;

const RecordShape = z.looseObject({ id: z.string().min(1) });

/**
 * Where `value` holds a key named `__proto__` (JSON.parse makes it an own key; zod drops it
 * without a word, so a collection or a field of that name would vanish), or null. A walk with a
 * stack of its own: a file's nesting is not bounded the way a request body's is.
 */
function protoKeyPath(value: unknown): PropertyKey[] | null {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (Object.hasOwn(next.value, '__proto__')) return [...next.path, '__proto__'];
    for (const [k, v] of Object.entries(next.value)) if (v !== null && typeof v === 'object') stack.push({ value: v, path: [...next.path, Array.isArray(next.value) ? Number(k) : k] });
  }
  return null;
}

/** A snapshot, as GET /_emulator/snapshot serves it, POST /_emulator/snapshot/restore takes it and files keep it. */
export const WorldSnapshot = z
  .strictObject({
    svc_snapshot: z.literal(SNAPSHOT_FORMAT),
    taken_at: z.string(),
    collections: z.preprocess(
      (value, ctx) => {
        const at = protoKeyPath(value);
        if (at) ctx.addIssue({ code: 'custom', path: at, message: 'a key named __proto__ is not allowed (no collection or field has that name)' });
        return value;
      },
      z.record(z.string().regex(/^[a-z_]+$/, 'collection names are lowercase words'), z.array(RecordShape)),
    ),
  })
  .meta({ id: 'WorldSnapshot', description: 'Every record of every collection; restore it whole or not at all' });
export type WorldSnapshot = z.infer<typeof WorldSnapshot>;

/** Why a value is not a snapshot: its first problem, named by where it is. */
export function snapshotProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the snapshot';
  return `Not an svc snapshot: ${where}: ${issue.message}.`;
}

export const SaveSnapshot = z.strictObject({ name: SnapshotName });

export const SavedSnapshot = z.object({ name: z.string(), bytes: z.int().min(0) });

export const SnapshotList = z.object({
  snapshots: z.array(z.object({ name: z.string(), bytes: z.int().min(0), saved_at: z.string() })).meta({ description: 'Newest first' }),
});

export const SnapshotNameParams = z.object({ name: SnapshotName });

export const WorldReset = z.object({ reset: z.literal(true) });
export const WorldRestored = z.object({ restored: z.literal(true) });
export const NamedSnapshotRestored = z.object({ restored: z.string().meta({ description: 'The name of the snapshot now in force' }) });
export const Stopping = z.object({ stopping: z.literal(true), pid: z.int() });

/** GET /_emulator/fixtures.schema.json: a JSON Schema (draft 2020-12) document. */
export const FixturesJsonSchema = z.record(z.string(), z.unknown()).meta({ description: 'The fixtures file format as a JSON Schema (draft 2020-12)' });
