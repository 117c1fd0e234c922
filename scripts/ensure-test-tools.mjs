// The test suite needs programs from Debian that npm cannot provide:
//   chromium  the browser tests drive /usr/bin/chromium (no Playwright browser download here)
//   tmux      the CLI's interactive tests type into svc through a tmux pseudo-terminal
//   python3   the Python example suite (examples/python) runs under svc emulator exec
//   javac     the Java example suite (examples/java) is compiled and run with JDK 17 or newer
// `npm test` runs this first. Only what is missing is installed, with apt-get as root or through
// passwordless sudo (otherwise it stops and prints the command), and as little as possible:
// --no-install-recommends (recommends pulled in over a hundred packages, systemd among them)
// and --no-upgrade. It says what it installs and why, and first simulates the install: if the
// packages need a newer version of something already installed, it names it before going on.
// Idempotent: with all of them present it only checks and exits.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TOOLS = [
  { pkg: 'chromium', why: 'the browser tests (hosted pages, dashboard) drive /usr/bin/chromium', present: () => executable('/usr/bin/chromium') },
  { pkg: 'tmux', why: 'the interactive CLI tests type into svc through a tmux pseudo-terminal', present: () => spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 },
  { pkg: 'python3', why: 'the Python example suite (examples/python) runs in the tests', present: () => spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0 },
  { pkg: 'openjdk-17-jdk-headless', why: 'the Java example suite (examples/java) is compiled with javac 17 in the tests', present: () => javacMajor() >= 17 },
];
const APT_FLAGS = ['-y', '--no-install-recommends', '--no-upgrade'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The major version `javac -version` prints ("javac 17.0.15"), 0 without a javac. */
function javacMajor() {
  const r = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  const m = /javac (\d+)/.exec(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.status === 0 && m ? Number(m[1]) : 0;
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
  for (const t of TOOLS.filter((t) => missing.includes(t.pkg))) console.error(`Installing ${t.pkg}: ${t.why}.`);
  if (!run([...prefix, 'apt-get', 'update'])) fail('apt-get update failed');
  // A dry run first, to say what will change on this machine.
  const plan = spawnSync(prefix[0] ?? 'apt-get', [...prefix.slice(1), ...(prefix.length ? ['apt-get'] : []), 'install', '-s', ...APT_FLAGS, ...missing], { encoding: 'utf8' });
  const inst = (plan.stdout ?? '').split('\n').filter((l) => l.startsWith('Inst '));
  const upgrades = inst.filter((l) => /^Inst \S+ \[/.test(l)).map((l) => l.split(' ')[1]);
  console.error(`apt-get will add ${inst.length - upgrades.length} package(s) (without recommends).`);
  if (upgrades.length > 0) console.error(`Note: ${missing.join(', ')} need(s) newer versions of packages already installed: ${upgrades.join(', ')}.`);
  const ok = run([...prefix, 'apt-get', 'install', ...APT_FLAGS, ...missing]);
  const still = TOOLS.filter((t) => !t.present()).map((t) => t.pkg);
  if (!ok || still.length > 0) fail(`Installing failed; still missing: ${still.join(', ') || '(apt-get reported an error)'}.`);
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
