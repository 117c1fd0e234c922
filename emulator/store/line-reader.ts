import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

// Reads a file one line at a time in 1 MiB chunks: a journal or snapshot of any size loads
// without ever being one string (V8 caps a string near 512 MiB, so a whole-file read stops
// the emulator from starting past that).

interface Line {
  text: string;
  /** 1-based line number, for error messages. */
  number: number;
  /** Byte offset of the line's start: where to truncate a torn tail. */
  offset: number;
  /** The line ends in "\n" (every complete append does). */
  terminated: boolean;
}

export function* readLines(path: string): Generator<Line> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let pendingOffset = 0;
    let pendingBytes = 0;
    let number = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      let start = 0;
      for (let nl = buffer.indexOf(10, start); nl !== -1 && nl < n; nl = buffer.indexOf(10, start)) {
        const text = pending + decoder.write(buffer.subarray(start, nl));
        const bytes = pendingBytes + (nl - start);
        yield { text, number: ++number, offset: pendingOffset, terminated: true };
        pendingOffset += bytes + 1;
        pending = '';
        pendingBytes = 0;
        start = nl + 1;
      }
      if (start < n) {
        pending += decoder.write(buffer.subarray(start, n));
        pendingBytes += n - start;
      }
    }
    pending += decoder.end();
    if (pendingBytes > 0) yield { text: pending, number: ++number, offset: pendingOffset, terminated: false };
  } finally {
    closeSync(fd);
  }
}
