import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';

// scripts/ensure-test-tools.mjs (run by `npm test`) against a stand-in apt-get on PATH, which
// records its calls and "installs" tmux, python3 or a JDK by creating a stand-in program: only
// the missing programs are installed, without recommends or upgrades, and the script says what
// and why. (chromium is found at /usr/bin/chromium on the test machine, so it is the present one.)

const script = packageFile('scripts/ensure-test-tools.mjs');

/** A stand-in program in `bin` that prints `version` (as `tmux -V`, `python3 --version`, `javac -version` do). */
function program(bin: string, name: string, version: string) {
  writeFileSync(join(bin, name), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** `present`: the stand-ins already on PATH (by default python3 and a JDK 17, so tmux alone is missing). */
function fakeApt(upgrade: boolean, present: Record<string, string> = { python3: 'Python 3.11.2', javac: 'javac 17.0.15' }) {
  const bin = tempDir('svc-apt-');
  const log = join(bin, 'calls.log');
  for (const [name, version] of Object.entries(present)) program(bin, name, version);
  const dryRun = upgrade ? 'Inst libevent-core-2.1-7 [2.1.12-stable-7] (2.1.12-stable-8 Debian:12)\\nInst tmux (3.3a-3 Debian:12)' : 'Inst tmux (3.3a-3 Debian:12)';
  const stub = (name: string, version: string) => `printf '#!/bin/sh\\necho ${version}\\n' > "${bin}/${name}"; /bin/chmod +x "${bin}/${name}"`;
  writeFileSync(
    join(bin, 'apt-get'),
    `#!/bin/sh
echo "$@" >> "${log}"
case "$*" in
  --version) exit 0 ;;
  *" -s "*) printf '${dryRun}\\n' ;;
  install*)
    for p in "$@"; do
      case "$p" in
        tmux) ${stub('tmux', 'tmux 3.3a')} ;;
        python3) ${stub('python3', 'Python 3.11.2')} ;;
        openjdk-17-jdk-headless) ${stub('javac', 'javac 17.0.15')} ;;
      esac
    done ;;
esac
exit 0
`,
  );
  chmodSync(join(bin, 'apt-get'), 0o755);
  return { bin, log };
}

const runScript = (bin: string) => spawnSync(process.execPath, [script], { encoding: 'utf8', env: { PATH: bin, HOME: bin } });

test('only the missing tool is installed, without recommends or upgrades, and the script says why', { skip: !existsSync('/usr/bin/chromium') || process.getuid?.() !== 0 ? 'needs root and /usr/bin/chromium' : false }, () => {
  const { bin, log } = fakeApt(false);
  const r = runScript(bin);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /Installing tmux: the interactive CLI tests type into svc through a tmux pseudo-terminal\./);
  assert.doesNotMatch(r.stderr, /Installing chromium/);
  assert.match(r.stderr, /apt-get will add 1 package\(s\) \(without recommends\)\./);
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  assert.deepEqual(calls.filter((c) => c !== '--version'), ['update', 'install -s -y --no-install-recommends --no-upgrade tmux', 'install -y --no-install-recommends --no-upgrade tmux']);

  // Run again: everything is present, apt-get is not called at all.
  const again = runScript(bin);
  assert.equal(again.status, 0);
  assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, calls.length);
});

test('a package that needs a newer version of an installed one is named before the install', { skip: !existsSync('/usr/bin/chromium') || process.getuid?.() !== 0 ? 'needs root and /usr/bin/chromium' : false }, () => {
  const { bin } = fakeApt(true);
  const r = runScript(bin);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /Note: tmux need\(s\) newer versions of packages already installed: libevent-core-2\.1-7\./);
});

test('python3 and a JDK 17 are installed when missing, or when javac is older than 17', { skip: !existsSync('/usr/bin/chromium') || process.getuid?.() !== 0 ? 'needs root and /usr/bin/chromium' : false }, () => {
  const { bin, log } = fakeApt(false, { tmux: 'tmux 3.3a', javac: 'javac 11.0.20' });
  const r = runScript(bin);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /Installing python3: the Python example suite \(examples\/python\) runs in the tests\./);
  assert.match(r.stderr, /Installing openjdk-17-jdk-headless: the Java example suite \(examples\/java\) is compiled with javac 17 in the tests\./);
  assert.doesNotMatch(r.stderr, /Installing (tmux|chromium)/);
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  assert.deepEqual(calls.filter((c) => c !== '--version'), [
    'update',
    'install -s -y --no-install-recommends --no-upgrade python3 openjdk-17-jdk-headless',
    'install -y --no-install-recommends --no-upgrade python3 openjdk-17-jdk-headless',
  ]);
});
