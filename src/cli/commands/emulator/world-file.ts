import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '../../../../emulator/index.js';
import { UsageError } from '../../errors.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';
import { parseWorldJson } from '../../../../contract/world-json.js';

// A world written to a folder (`exec --export-on-exit DIR`) and read back (`start --import
// DIR`): one snapshot file, world.json, in the format of GET /_emulator/snapshot.

const FILE = 'world.json';

/** `name`: --import or SVC_IMPORT, as the user gave it. */
export async function importWorld(emulator: RunningEmulator, dir: string, name: string): Promise<void> {
  const file = join(dir, FILE);
  let parsed: unknown;
  try {
    parsed = parseWorldJson(readFileSync(file, 'utf8'));
  } catch (err) {
    await emulator.close();
    throw new UsageError(`${name}: cannot read ${file} (${codeOf(err) ?? messageOf(err)}); write one with \`svc emulator exec --export-on-exit ${dir} -- …\`.`);
  }
  try {
    await emulator.restore(parsed);
  } catch (err) {
    await emulator.close();
    throw new UsageError(`${name}: ${file}: ${messageOf(err)}`);
  }
}

/**
 * Temp file then rename: a crash mid-write never leaves half a world under the name. The world
 * holds every key and secret, so the folders made for it are private (0700, whatever the umask)
 * and the file is 0600; a folder that already existed keeps its modes (it is the user's).
 */
export function exportWorld(emulator: RunningEmulator, dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(emulator.snapshot()), { mode: 0o600 }); // it holds every key and secret
  renameSync(`${file}.tmp`, file);
  return file;
}
