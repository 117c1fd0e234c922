import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { parseSnapshot, restoreSnapshot, takeSnapshot } from '../world.js';
import { snapshotProblem } from '../../contract/control/world.js';
import { SnapshotName } from '../../contract/snapshot-name.js';
import { parseWorldJson } from '../../contract/world-json.js';
import { fixturesJsonSchema } from '../fixtures-schema.js';
import { defineControl, type ControlRoute } from './route.js';
import { codeOf, messageOf } from '../../contract/errors.js';
import { STORE_RETRY_AFTER_SECONDS } from '../store/store-write-error.js';

// The world as a whole, from outside the process: reset to the fixtures, snapshots (whole, in
// a body, or named and kept under <data dir>/snapshots/), and a graceful stop. The CLI's
// `svc emulator reset | snapshot … | stop` and the testing API call these.

const SNAPSHOT_DIR = 'snapshots';

function lifecycle(s: Services) {
  if (!s.lifecycle) throw new ApiError('SERVICE_UNAVAILABLE', 'The emulator is still starting.');
  return s.lifecycle;
}

function snapshotDir(s: Services): string {
  if (!s.dataDir) throw new ApiError('VALIDATION_ERROR', 'This emulator keeps no data dir (memory store): take the snapshot with GET /_emulator/snapshot instead of naming one.');
  return join(s.dataDir, SNAPSHOT_DIR);
}

function snapshotFile(s: Services, name: string): string {
  return join(snapshotDir(s), `${name}.json`);
}

export const worldControlRoutes: ControlRoute[] = [
  defineControl('reset', {
    run: async (s) => {
      await lifecycle(s).reset();
      return { reset: true };
    },
  }),
  defineControl('snapshot', { handler: (s) => takeSnapshot(s) }),
  defineControl('restoreSnapshot', {
    // Worded like every refused snapshot (the testing API's restore, --restore).
    bodyProblem: snapshotProblem,
    run: async (s, { body }) => {
      await restoreSnapshot(s, body);
      return { restored: true };
    },
  }),
  defineControl('listSnapshots', {
    run: (s) => {
      const dir = snapshotDir(s);
      let files: string[] = [];
      try {
        files = readdirSync(dir).filter((f) => f.endsWith('.json'));
      } catch {
        // no snapshot saved yet
      }
      const list = files.map((f) => {
        const st = statSync(join(dir, f));
        return { name: f.slice(0, -'.json'.length), bytes: st.size, saved_at: st.mtime.toISOString() };
      });
      return { snapshots: list.sort((a, b) => b.saved_at.localeCompare(a.saved_at)) };
    },
  }),
  defineControl('saveSnapshot', {
    run: (s, { body }) => {
      const file = snapshotFile(s, body.name);
      // Temp file then rename: a crash mid-write never leaves a half snapshot under the name.
      const text = JSON.stringify(takeSnapshot(s));
      const tmp = `${file}.tmp`;
      try {
        mkdirSync(snapshotDir(s), { recursive: true, mode: 0o700 }); // private, like the data dir
        writeFileSync(tmp, text, { mode: 0o600 });
        renameSync(tmp, file);
      } catch (err) {
        throw new ApiError('SERVICE_UNAVAILABLE', `The snapshot could not be written (${codeOf(err) ?? messageOf(err)}); nothing was saved under "${body.name}".`).retryAfter(STORE_RETRY_AFTER_SECONDS);
      }
      return { name: body.name, bytes: Buffer.byteLength(text) };
    },
  }),
  defineControl('restoreNamedSnapshot', {
    run: async (s, { params }) => {
      const name = SnapshotName.safeParse(params.name);
      if (!name.success) throw new ApiError('VALIDATION_ERROR', `Snapshot name ${name.error.issues[0].message}.`);
      let text: string;
      try {
        text = readFileSync(snapshotFile(s, name.data), 'utf8');
      } catch {
        throw new ApiError('NOT_FOUND', `No snapshot named "${name.data}" (list them with svc emulator snapshot list).`);
      }
      let parsed: unknown;
      try {
        parsed = parseWorldJson(text);
      } catch {
        throw new ApiError('VALIDATION_ERROR', `The snapshot file of "${name.data}" is not JSON; the world was left as it was.`);
      }
      await restoreSnapshot(s, parseSnapshot(parsed));
      return { restored: name.data };
    },
  }),
  defineControl('fixturesSchema', { handler: () => fixturesJsonSchema() }),
  defineControl('stop', {
    run: (s) => {
      lifecycle(s).requestStop();
      return { stopping: true, pid: process.pid };
    },
  }),
];
