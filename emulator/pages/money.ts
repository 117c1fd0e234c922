import { currencyFormatter as formatter } from '../performance/process-caches.js';

// Amounts on pages: minor units in, the currency's own format out ("$12.00", "LRD 1,500.00"),
// and a payer's typed amount ("12.5") back to minor units, using the currency's own number of
// decimals (Intl knows that JPY has none and USD two).

const fractionDigits = (currency: string) => formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;

export function formatMinor(minor: number, currency: string): string {
  return formatter(currency).format(minor / 10 ** fractionDigits(currency));
}

/** "12", "12.5", "1,200.50" → minor units; undefined when it is not a positive amount. */
export function parseMajor(text: string, currency: string): number | undefined {
  const digits = fractionDigits(currency);
  const cleaned = text.trim().replace(/,/g, '');
  const m = /^(\d{1,12})(?:\.(\d*))?$/.exec(cleaned);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > digits) return undefined;
  const minor = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) && minor > 0 ? minor : undefined;
}
