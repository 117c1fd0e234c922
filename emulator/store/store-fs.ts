import * as fs from 'node:fs';

// The few filesystem calls the file store makes to keep writes durable, behind one seam so a
// test can make any of them fail (ENOSPC on the append, EIO on the fsync, a read-only dir)
// and check that nothing failed is acknowledged and that the store works again afterwards.

export interface StoreFs {
  openSync(path: string, flags: string): number;
  writeSync(fd: number, data: string | Buffer, offset?: number): number;
  fsyncSync(fd: number): void;
  /** fsync on libuv's thread pool: a snapshot of hundreds of MB takes long to reach the disk,
   *  and the event loop must keep serving meanwhile (compaction uses this one). */
  fsync(fd: number): Promise<void>;
  ftruncateSync(fd: number, len: number): void;
  fstatSize(fd: number): number;
  closeSync(fd: number): void;
}

export const realFs: StoreFs = {
  // Every file the store (or the request log) creates holds keys or secrets: 0600, whatever the umask (data-dir.ts).
  openSync: (path, flags) => fs.openSync(path, flags, 0o600),
  writeSync: (fd, data, offset) => (typeof data === 'string' ? fs.writeSync(fd, data) : fs.writeSync(fd, data, offset ?? 0)),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fsync: (fd) => new Promise((ok, fail) => fs.fsync(fd, (err) => (err ? fail(err) : ok()))),
  ftruncateSync: (fd, len) => fs.ftruncateSync(fd, len),
  fstatSize: (fd) => fs.fstatSync(fd).size,
  closeSync: (fd) => fs.closeSync(fd),
};

type FsStep = 'write' | 'fsync' | 'open';

/**
 * A StoreFs that fails the steps named in a control file while that file exists:
 * `SVC_TEST_STORE_FAULTS=<path>` makes a real emulator process read `<path>` before each
 * step, e.g. `write ENOSPC` or `fsync EIO` (one rule a line); a third word limits the rule to
 * files whose path contains it (`write ENOSPC request-log/`: only the request log's writes).
 * The tests of the real process use it, since a small tmpfs cannot be mounted everywhere. A
 * failing `write` first writes half its bytes, as a short write onto a filling disk does, so
 * the torn tail must be removed.
 */
function faultInjectingFs(controlPath: string, base: StoreFs = realFs): StoreFs {
  const paths = new Map<number, string>();
  const fault = (step: FsStep, path: string | undefined): NodeJS.ErrnoException | undefined => {
    let rules: string;
    try {
      rules = fs.readFileSync(controlPath, 'utf8');
    } catch {
      return undefined;
    }
    for (const line of rules.split('\n')) {
      const [s, code, within] = line.trim().split(/\s+/);
      if (s === step && code && (within === undefined || (path ?? '').includes(within))) return Object.assign(new Error(`${code}: injected failure of ${step}`), { code, syscall: step });
    }
    return undefined;
  };
  return {
    ...base,
    openSync: (path, flags) => {
      const err = fault('open', path);
      if (err) throw err;
      const fd = base.openSync(path, flags);
      paths.set(fd, path);
      return fd;
    },
    closeSync: (fd) => {
      paths.delete(fd);
      base.closeSync(fd);
    },
    writeSync: (fd, data, offset) => {
      const err = fault('write', paths.get(fd));
      if (err) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data.subarray(offset ?? 0);
        base.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length / 2)), 0);
        throw err;
      }
      return base.writeSync(fd, data, offset);
    },
    fsyncSync: (fd) => {
      const err = fault('fsync', paths.get(fd));
      if (err) throw err;
      base.fsyncSync(fd);
    },
    fsync: async (fd) => {
      const err = fault('fsync', paths.get(fd));
      if (err) throw err;
      await base.fsync(fd);
    },
  };
}

/** The seam a FileStore uses: the real one, or the injecting one under SVC_TEST_STORE_FAULTS. */
export function storeFsFromEnv(): StoreFs {
  const control = process.env.SVC_TEST_STORE_FAULTS;
  return control ? faultInjectingFs(control) : realFs;
}
