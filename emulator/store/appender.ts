import type { StoreFs } from './store-fs.js';

// One append-only file that only ever ends in whole appends: an append either reaches the file
// whole or is cut off again (ftruncate to the length before it), so no later append follows a
// torn piece. Only a kill -9 in the middle of a write can leave a torn last line, which the
// reader drops. The store's journal segments (file-store.ts) and the request log's segments
// (request-log/log-file.ts) are written through it.

export class Appender {
  private fd = -1;
  /** Bytes of the file that are whole appends. */
  private bytes = 0;
  /** A failed append whose torn tail could not be cut off yet: cut it before the next append. */
  private tornTail = false;

  constructor(private readonly fs: StoreFs) {}

  get isOpen(): boolean {
    return this.fd >= 0;
  }

  get size(): number {
    return this.bytes;
  }

  /** Opens `path` for appending (created if absent); the file open before is closed. */
  open(path: string): void {
    const fd = this.fs.openSync(path, 'a');
    this.close();
    this.fd = fd;
    this.bytes = this.fs.fstatSize(fd);
    this.tornTail = false;
  }

  close(): void {
    if (this.fd >= 0) this.fs.closeSync(this.fd);
    this.fd = -1;
  }

  /**
   * Appends `data` whole (and fsyncs it with `fsync`), or throws the filesystem's error with
   * the file as it was before (whatever part reached it is cut off, now or before the next append).
   */
  append(data: string | Buffer, fsync = false): void {
    if (this.fd < 0) throw Object.assign(new Error('the file is closed'), { code: 'EBADF' });
    const before = this.bytes;
    const length = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    try {
      if (this.tornTail) {
        this.fs.ftruncateSync(this.fd, before);
        this.tornTail = false;
      }
      let written = this.fs.writeSync(this.fd, data, 0);
      if (written < length) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        while (written < bytes.length) written += this.fs.writeSync(this.fd, bytes, written);
      }
      if (fsync) this.fs.fsyncSync(this.fd);
      this.bytes = before + length;
    } catch (err) {
      // Cut off whatever part of the text reached the file, so the next append does not follow
      // a torn line (which the next load would refuse). If even that fails, try again first
      // thing at the next append.
      try {
        this.fs.ftruncateSync(this.fd, before);
      } catch {
        this.tornTail = true;
      }
      throw err;
    }
  }

  fsync(): void {
    if (this.fd >= 0) this.fs.fsyncSync(this.fd);
  }
}
