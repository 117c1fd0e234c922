import { messageOf } from '../../contract/errors.js';

// Where a request body stops being JSON, said by position and never by content: JSON.parse's
// own message may quote the body (`Unexpected token 'i', "title=t&pin=461937" is not valid
// JSON`), and a body may hold a PIN (issue 46). The 422 says what broke and where.

const POSITION = / in JSON at position (\d+)/;

/** True when `prefix` holds no error JSON.parse can see yet: it parses, or it only ends too soon. */
function noErrorYet(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (err) {
    const message = messageOf(err);
    const at = POSITION.exec(message);
    return message.startsWith('Unexpected end of JSON input') || (at !== null && Number(at[1]) >= prefix.length);
  }
}

/** Offset of the first character JSON.parse refused in `text`, given its message. */
function offsetOf(text: string, message: string): number {
  const at = POSITION.exec(message);
  if (at) return Number(at[1]);
  if (message.startsWith('Unexpected end of JSON input')) return text.length;
  // Only "Unexpected token" has no position: the longest prefix with no error in it ends there.
  // The parse stops at the first error, so no try costs more than reading up to it.
  let fine = 0;
  let broken = text.length;
  while (broken - fine > 1) {
    const mid = (fine + broken) >>> 1;
    if (noErrorYet(text.slice(0, mid))) fine = mid;
    else broken = mid;
  }
  return fine;
}

/** `body: not valid JSON at position 7 (line 1, column 8): expected double-quoted property name`. */
export function describeJsonError(text: string, message: string): string {
  const offset = offsetOf(text, message);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  // The parser's own words without the position; the one that quotes the text (the token and
  // an excerpt: "Unexpected token 'i', "title=t&p"... is not valid JSON") in ours.
  const own = /^Unexpected token|is not valid JSON/.test(message)
    ? 'unexpected character'
    : message.replace(/ in JSON at position.*$/s, '').replace(/^Unexpected end of JSON input$/, 'the body ends too soon');
  const why = own.charAt(0).toLowerCase() + own.slice(1);
  return `body: not valid JSON at position ${offset} (line ${line}, column ${column}): ${why}`;
}
