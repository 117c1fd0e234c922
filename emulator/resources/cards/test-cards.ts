// Test card numbers the emulator understands, in one table: the card-mandate approval page
// lists them, and the charge path asks `cardOutcome` what a saved card does. Any other number
// that passes the Luhn check behaves like a working card, so a developer's own test number is
// not refused; a number that fails Luhn is refused where it is entered.

export type CardOutcome = 'succeeds' | 'declined' | 'insufficient_funds';

interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard';
  outcome: CardOutcome;
  /** What the card does, as the approval page shows it. */
  label: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'succeeds', label: 'Visa: charges succeed' },
  { number: '5555555555554444', brand: 'mastercard', outcome: 'succeeds', label: 'Mastercard: charges succeed' },
  { number: '4000000000000002', brand: 'visa', outcome: 'declined', label: 'Visa: charges are declined (generic decline)' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds', label: 'Visa: charges are declined for insufficient funds' },
];

/** Digits only: "4242 4242-4242 4242" → "4242424242424242". */
export const normalizeCardNumber = (number: string) => number.replace(/[\s-]/g, '');

/** The Luhn checksum every real card number satisfies. */
export function passesLuhn(number: string): boolean {
  const digits = normalizeCardNumber(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** What a charge on this card does. Unknown (Luhn-valid) numbers succeed. */
export function cardOutcome(number: string): CardOutcome {
  const digits = normalizeCardNumber(number);
  return TEST_CARDS.find((c) => c.number === digits)?.outcome ?? 'succeeds';
}

/** Brand from the leading digits (enough for the emulator's receipts and the mandate record). */
export function cardBrand(number: string): string {
  const digits = normalizeCardNumber(number);
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
}
