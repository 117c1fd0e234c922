import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The peers the bench measures svc against (Prism, Mockoon CLI, json-server) are not svc's
// dependencies: package.json never names them and the project's `npm install` never fetches
// them. The bench installs each one on demand, at the exact version its table pins, into a
// folder of its own under a cache the bench owns (bench/.cache/peers, git-ignored; or
// BENCH_PEERS_DIR), with npm's own client and nothing run at install time (--ignore-scripts).
// npm refuses a version whose `engines` exclude the running Node (--engine-strict), so a peer
// that would run unsupported is reported instead of measured. A folder is used only once an
// install into a scratch folder beside it finished and was renamed into place, so an install
// killed half-way is never mistaken for a finished one. Anything that goes wrong comes back
// as a reason for the peer's row, never as an exception: one peer that cannot be had must not
// stop the others from being measured.

export interface PeerPackage {
  /** The npm package, e.g. "@stoplight/prism-cli". */
  pkg: string;
  /** An exact version, x.y.z; anything else (a range, a tag) is refused. */
  version: string;
  /** The package's executable, as named in its `bin`. */
  bin: string;
}

export type Installed = { script: string } | { skipped: string };

export interface InstallOptions {
  cacheDir: string;
  log?: (message: string) => void;
}

const PINNED = /^\d+\.\d+\.\d+$/;
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const MARKER = 'installed.json';

/** The peer's executable script (to run with this Node), installing it first when the cache lacks it. */
export async function installPeer(peer: PeerPackage, opts: InstallOptions): Promise<Installed> {
  const spec = `${peer.pkg}@${peer.version}`;
  if (!PINNED.test(peer.version)) return { skipped: `refused to install ${spec}: not a pinned version (x.y.z)` };
  const dir = join(opts.cacheDir, `${peer.pkg.replace('/', '+')}@${peer.version}`);
  if (!existsSync(join(dir, MARKER))) {
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'package.json'), `${JSON.stringify({ private: true, description: `svc bench peer ${spec}` })}\n`);
    opts.log?.(`installing ${spec} into ${dir}`);
    const args = ['install', spec, '--prefix', scratch, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict', '--fetch-retries=0'];
    const failed = await npm(args, scratch);
    const version = failed ? undefined : installedVersion(scratch, peer.pkg);
    if (failed || version !== peer.version) {
      rmSync(scratch, { recursive: true, force: true });
      return { skipped: `could not install ${spec}: ${failed ?? `npm installed ${version ?? 'nothing'}`}` };
    }
    writeFileSync(join(scratch, MARKER), `${JSON.stringify({ spec, at: new Date().toISOString() })}\n`);
    // Another bench run may have finished the same install meanwhile: either copy will do.
    if (existsSync(dir)) rmSync(scratch, { recursive: true, force: true });
    else renameSync(scratch, dir);
  }
  try {
    return { script: realpathSync(join(dir, 'node_modules', '.bin', peer.bin)) };
  } catch {
    return { skipped: `${spec} in ${dir} has no executable ${peer.bin}` };
  }
}

function installedVersion(dir: string, pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Runs npm; resolves undefined when it succeeded, else what its error output says went wrong. */
function npm(args: string[], cwd: string): Promise<string | undefined> {
  return new Promise((done) => {
    // npm's own configuration applies (its registry, proxy, cache: .npmrc or npm_config_* variables).
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      done(`cannot run npm (${err.message})`);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(undefined);
      else done(signal === 'SIGKILL' ? `npm did not finish in ${INSTALL_TIMEOUT_MS / 60_000} min` : npmReason(stderr) || `npm exited ${code ?? signal}`);
    });
  });
}

/** npm's error code and its first line or two of explanation, from its "npm error …" lines. */
export function npmReason(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('npm error ')).map((l) => l.slice('npm error '.length));
  const code = lines.map((l) => /^code (\S+)/.exec(l)?.[1]).find(Boolean);
  const detail = lines.filter((l) => l.trim() && !/^(code|syscall|errno|engine|path|A complete log)\b|^[\s{}]/.test(l)).slice(0, 2);
  return [code, ...detail].filter(Boolean).join(': ');
}
