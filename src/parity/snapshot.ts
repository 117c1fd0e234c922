import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { describeZodError } from '../../contract/zod-error.js';
import { codeOf, messageOf } from '../../contract/errors.js';

// The snapshot file: what `svc parity record` writes and `svc parity check` reads. JSON, with a
// format name and version so a file from another tool or a later svc is refused by name, the
// host it was recorded against (no key, no secret: only the environment of the keys and whether
// the optional ones were given), the normalized answers of every step, and the differences a
// team accepted (`ignore`, each with its reason).

export const SNAPSHOT_FORMAT = 'svc-parity-snapshot';
export const SNAPSHOT_VERSION = 1;

const Delivery = z.strictObject({
  event: z.string(),
  headers: z.record(z.string(), z.string()),
  signature_valid: z.boolean(),
  body: z.unknown(),
});

export const RecordedStep = z.strictObject({
  name: z.string(),
  /** The contract route it exercised ("GET /v1/api/payments/:id"); null for a path no route has. */
  route: z.string().nullable(),
  request: z.strictObject({ method: z.string(), path: z.string() }),
  /** Why the step could not run (an earlier answer it refers to is missing); absent when it ran. */
  not_run: z.string().optional(),
  /** Why the step was not played although it could run (deliveries from an emulator whose clock is manual); never compared. */
  skipped: z.string().optional(),
  status: z.int().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  lists: z.array(z.string()).optional(),
  rules: z.record(z.string(), z.boolean()).optional(),
  deliveries: z.array(Delivery).optional(),
});

export const RecordedScenario = z.strictObject({
  name: z.string(),
  description: z.string(),
  /** Why it was not run (a missing optional key, --webhook-url or --var); absent when it ran. */
  skipped: z.string().optional(),
  steps: z.array(RecordedStep),
});

export const IgnoreEntry = z.strictObject({
  /** scenario/step:where, e.g. payouts/create:$.data.status; * matches any scenario or step. */
  path: z.string().min(1),
  reason: z.string().min(1),
  added_at: z.string().optional(),
});

export const Snapshot = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  svc_version: z.string(),
  recorded_at: z.string(),
  host: z.strictObject({
    base_url: z.string(),
    /** "svc emulator" when the run used the emulator's seeded fixtures, else "host". */
    kind: z.enum(['svc emulator', 'host']),
    environment: z.literal('test'),
    other_key: z.boolean(),
    restricted_key: z.boolean(),
    webhooks: z.boolean(),
  }),
  vars: z.record(z.string(), z.string()),
  ignore: z.array(IgnoreEntry),
  scenarios: z.array(RecordedScenario),
});

export type Snapshot = z.infer<typeof Snapshot>;
export type RecordedScenario = z.infer<typeof RecordedScenario>;
export type RecordedStep = z.infer<typeof RecordedStep>;
export type IgnoreEntry = z.infer<typeof IgnoreEntry>;

/** A snapshot file that cannot be used: the CLI reports it as a usage error (exit 2). */
export class SnapshotFileError extends Error {}

export function readSnapshot(file: string): Snapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = codeOf(err);
    throw new SnapshotFileError(code === 'ENOENT' ? `snapshot file ${file} does not exist (record one with \`svc parity record --out ${file}\`).` : `cannot read snapshot file ${file}: ${messageOf(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SnapshotFileError(`snapshot file ${file} is not JSON: ${messageOf(err)}`);
  }
  if (json === null || typeof json !== 'object' || (json as { format?: unknown }).format !== SNAPSHOT_FORMAT) {
    throw new SnapshotFileError(`${file} is not an svc parity snapshot (no "format": "${SNAPSHOT_FORMAT}").`);
  }
  const parsed = Snapshot.safeParse(json);
  if (!parsed.success) throw new SnapshotFileError(`snapshot file ${file} is damaged: ${describeZodError(parsed.error, 'file')}`);
  return parsed.data;
}

/** Stable formatting (2 spaces, a final newline): the published snapshot is a reviewed file. */
const snapshotText = (snapshot: Snapshot): string => `${JSON.stringify(snapshot, null, 2)}\n`;

export function writeSnapshot(file: string, snapshot: Snapshot): void {
  writeFileSync(file, snapshotText(snapshot));
}
