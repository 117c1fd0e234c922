// The merchant app's package-lock.json, made from the repository's own: the tarball (a file:
// dependency) plus the runners the fresh projects use (jest, vitest, typescript, @types/node),
// each with exactly the versions the repository's lock holds. `npm ci` then installs from the
// npm cache that the repository's own install filled: no version is resolved anew, so nothing
// newer than that cache holds is asked for.

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  optional?: boolean;
  [field: string]: unknown;
}

export interface PackageLock {
  name: string;
  version: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

interface Tarball {
  /** What the app's package.json says, e.g. `file:svc-toolkit-0.1.0.tgz`. */
  spec: string;
  /** The packed package.json. */
  manifest: { name: string; version: string; license?: string; dependencies?: Record<string, string>; bin?: Record<string, string>; engines?: Record<string, string> };
}

/** Where npm finds `name` from the package at `from` ('' = the root): its own node_modules, then each parent's. */
function locate(packages: PackageLock['packages'], from: string, name: string): string | null {
  for (let at = from; ; ) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (at === '') return null;
    const parent = at.lastIndexOf('/node_modules/');
    at = parent < 0 ? '' : at.slice(0, parent);
  }
}

/** The app's package.json dependencies and its lock. */
export function consumerLock(repoLock: PackageLock, app: string, tarball: Tarball, runners: string[]): { dependencies: Record<string, string>; lock: PackageLock } {
  const packages: PackageLock['packages'] = {};
  const queue: Array<[from: string, name: string, required: boolean]> = [...Object.keys(tarball.manifest.dependencies ?? {}), ...runners].map((name) => ['', name, true]);
  while (queue.length > 0) {
    const [from, name, required] = queue.shift()!;
    const at = locate(repoLock.packages, from, name);
    if (at === null) {
      if (required) throw new Error(`${name} (needed by ${from || 'the app'}) is not in the repository's package-lock.json`);
      continue;
    }
    if (packages[at]) continue;
    // Which of the repository's dependency kinds led here says nothing about the app's.
    const { dev: _dev, devOptional, peer: _peer, ...entry } = repoLock.packages[at]!;
    packages[at] = devOptional ? { ...entry, optional: true } : entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) queue.push([at, dep, true]);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) queue.push([at, dep, false]);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) queue.push([at, dep, !entry.peerDependenciesMeta?.[dep]?.optional]);
  }
  const { name, version, license, dependencies, bin, engines } = tarball.manifest;
  packages[`node_modules/${name}`] = { version, resolved: tarball.spec, license, dependencies, bin, engines };
  const appDependencies = { [name]: tarball.spec, ...Object.fromEntries(runners.map((runner) => [runner, repoLock.packages[`node_modules/${runner}`]!.version!])) };
  return {
    dependencies: appDependencies,
    lock: { name: app, version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: app, version: '1.0.0', dependencies: appDependencies }, ...packages } },
  };
}
