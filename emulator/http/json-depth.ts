// Request bodies may nest objects and arrays at most MAX_JSON_DEPTH deep. Everything after the
// parser walks bodies recursively (zod, the idempotency fingerprint, JSON.stringify into the
// store), and a 4,000-deep `[[[[…` would overflow the stack there and answer 500; a 1 MB body
// of brackets also costs JSON.parse a third of a second. So the raw bytes are scanned first,
// in one pass with no recursion, and a body nested too deep is refused with 422 unparsed.

/** Deepest nesting of objects and arrays a request body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b; // [
const OPEN_OBJECT = 0x7b; // {
const CLOSE_ARRAY = 0x5d; // ]
const CLOSE_OBJECT = 0x7d; // }

/** True when `bytes` (UTF-8 JSON text, valid or not) nests containers deeper than `max`. */
function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  // Brackets are ASCII, so they can be found byte by byte: no UTF-8 continuation byte is < 0x80.
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The `verify` hook of express.json: throws before the body is parsed when it nests too deep. */
export function refuseDeepJson(_req: unknown, _res: unknown, buf: Buffer, encoding: string): void {
  const utf8 = /^utf-?8$/i.test(encoding) ? buf : new TextEncoder().encode(new TextDecoder(encoding).decode(buf));
  if (nestsDeeperThan(utf8, MAX_JSON_DEPTH)) {
    throw Object.assign(new Error(`body: objects and arrays nest deeper than ${MAX_JSON_DEPTH} levels`), { type: 'entity.too.deep' });
  }
}
