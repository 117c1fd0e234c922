// The test suite needs two programs from Debian that npm cannot provide:
//   chromium  the browser tests drive /usr/bin/chromium (no Playwright browser download here)
//   tmux      the CLI's interactive tests type into svc through a tmux pseudo-terminal
// `npm test` runs this first. Whatever is missing is installed with apt-get, as root or through
// passwordless sudo; otherwise it stops and prints the command. Idempotent: with both present
// it only checks and exits.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TOOLS = [
  { pkg: 'chromium', present: () => executable('/usr/bin/chromium') },
  { pkg: 'tmux', present: () => spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(argv) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env }).status === 0;
}

const missing = TOOLS.filter((t) => !t.present()).map((t) => t.pkg);
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasSudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasApt || (!isRoot && !hasSudo)) {
    console.error(
      `The tests need ${missing.join(' and ')}. Install with:\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\n` +
        '(this script does that by itself when run as root or with passwordless sudo on Debian/Ubuntu).',
    );
    process.exit(1);
  }
  const prefix = isRoot ? [] : ['sudo', '-n', '-E'];
  console.error(`Installing Debian packages the tests need: ${missing.join(', ')}…`);
  const ok = run([...prefix, 'apt-get', 'update']) && run([...prefix, 'apt-get', 'install', '-y', ...missing]);
  const still = TOOLS.filter((t) => !t.present()).map((t) => t.pkg);
  if (!ok || still.length > 0) {
    console.error(`Installing failed; still missing: ${still.join(', ') || '(apt-get reported an error)'}.`);
    process.exit(1);
  }
}
