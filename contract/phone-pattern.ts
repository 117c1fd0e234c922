// What the service reads as a phone number, as one regular expression: E.164 (+231770000201)
// or as people type it locally ("+231 77 000 0201", "0770000201", "(077) 000-0201",
// "00231770000201", "231770000201"). Spaces, dots, dashes and brackets are ignored anywhere; a
// leading 00 means +, a leading 0 means +231 (the service is Liberian), 231 without + is read as
// +231; what remains must be + and 8 to 15 digits, the first not 0. The emulator normalizes with
// emulator/resources/users/phone.ts normalizePhone, which accepts exactly these strings (a test
// holds the two together), and the OpenAPI document carries the expression as the field's pattern
// (phone.ts's schema). Plain text, no zod: the redaction rules read it, and the CLI loads them.

/** Separators a person may type anywhere. */
const SEP = '[\\s().-]*';
const digits = (min: number, max: number) => `(?:${SEP}\\d){${min},${max}}`;

/** `+` and 8 to 15 digits, separators anywhere after the `+`: E.164 as typed. */
const PLUS_PHONE = `\\+${SEP}[1-9]${digits(7, 14)}`;

/**
 * A phone written with its `+`, in running text: no further digit follows it. The request log's
 * card rule (contract/redact.ts) never takes one for a card: about 1 in 10 of them
 * passes Luhn, and a phone is no secret.
 */
export const PLUS_PHONE_IN_TEXT = `${PLUS_PHONE}(?!${SEP}\\d)`;

export const PHONE_PATTERN =
  `^${SEP}(?:` +
  [
    PLUS_PHONE, // +231770000201
    `0${SEP}0${SEP}[1-9]${digits(7, 14)}`, // 00231770000201
    `0${SEP}[1-9]${digits(4, 11)}`, // 0770000201 → +231770000201
    `2${SEP}3${SEP}1${digits(5, 12)}`, // 231770000201 → +231770000201
  ].join('|') +
  `)${SEP}$`;

export const PHONE_DESCRIPTION =
  'A phone number: E.164 (`+231770000201`) or as typed locally; spaces, dots, dashes and brackets are ignored, ' +
  'a leading `00` means `+`, a leading `0` means `+231`, and `231…` without `+` is read as `+231…`. What remains must be `+` and 8 to 15 digits, the first not 0.';

