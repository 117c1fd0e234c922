// The browser tests drive Debian's Chromium at /usr/bin/chromium (the machines have no internet
// for a Playwright browser download). `npm test` runs this first: if Chromium is missing it
// installs Debian's `chromium` package with apt-get, as root or through passwordless sudo.
// Idempotent: with Chromium present it only checks and exits.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = '/usr/bin/chromium';

function present() {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(argv) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const result = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env });
  return result.status === 0;
}

if (!present()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasSudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasApt || (!isRoot && !hasSudo)) {
    console.error(
      `The browser tests need Chromium at ${CHROMIUM}. Install it with:\n` +
        '  sudo apt-get update && sudo apt-get install -y chromium\n' +
        '(this script does that by itself when run as root or with passwordless sudo on Debian/Ubuntu).',
    );
    process.exit(1);
  }
  const prefix = isRoot ? [] : ['sudo', '-n', '-E'];
  console.error(`Chromium is missing at ${CHROMIUM}; installing Debian's chromium package…`);
  const ok =
    run([...prefix, 'apt-get', 'update']) &&
    run([...prefix, 'apt-get', 'install', '-y', 'chromium']);
  if (!ok || !present()) {
    console.error(`Installing chromium failed; ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}
