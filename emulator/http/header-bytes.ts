import type { ServerResponse } from 'node:http';

// Keeping a header's bytes 0x80–0xFF as they are on the way out. node:http holds header values
// as strings of one byte per character (latin1) and writes them that way, except in one case:
// when the first body chunk is a string, it sends the headers and that chunk in one write,
// encoded as the chunk is (UTF-8), so each such byte would leave as two. An echoed X-Trace-ID
// is the only header the emulator sends that can hold such bytes (everything else is ASCII),
// so only a response that echoes one turns its string chunks into Buffers; node then writes
// the headers on their own, as latin1.

/** Whether `value` holds a byte beyond ASCII (a character U+0080–U+00FF standing for one). */
export const hasHighBytes = (value: string): boolean => /[\x80-\xff]/.test(value);

/** `write` or `end` (same type, same `this`), taking a string chunk as the bytes of its encoding (the argument after it, if one). */
const sendingBytes = <F extends (...args: never[]) => unknown>(send: F): F =>
  new Proxy(send, {
    apply(target, self, args: unknown[]) {
      const [chunk, encoding] = args;
      if (typeof chunk === 'string') args[0] = Buffer.from(chunk, typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8');
      return Reflect.apply(target, self, args);
    },
  });

/** Makes `res` send every string chunk as the bytes of its encoding, so its headers keep theirs. */
export function keepHeaderBytes(res: ServerResponse): void {
  res.write = sendingBytes(res.write);
  res.end = sendingBytes(res.end);
}
