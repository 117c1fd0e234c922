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

type Callback = (err?: Error | null) => void;

const toBytes = (chunk: unknown, encoding: unknown): unknown =>
  typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk;

/** Makes `res` send every string chunk as the bytes of its encoding, so its headers keep theirs. */
export function keepHeaderBytes(res: ServerResponse): void {
  const write = res.write.bind(res) as (chunk: unknown, callback?: Callback) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, callback?: Callback) => ServerResponse;
  res.write = ((chunk: unknown, encoding?: unknown, callback?: Callback) =>
    write(toBytes(chunk, encoding), typeof encoding === 'function' ? (encoding as Callback) : callback)) as ServerResponse['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: Callback) => {
    if (typeof chunk === 'function') return end(undefined, chunk as Callback);
    return end(toBytes(chunk, encoding), typeof encoding === 'function' ? (encoding as Callback) : callback);
  }) as ServerResponse['end'];
}
