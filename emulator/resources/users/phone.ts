// Phone numbers as people type them: "+231 77 000 0201", "0770000201", "00231770000201".
// The service is Liberian, so a national number (leading 0) gets +231. Matching is best
// effort (payroll lines, OTPs, wallet approvals): anything that does not normalize to E.164
// simply matches no one.

const DEFAULT_COUNTRY_CODE = '231';

/** E.164 (`+231770000201`), or undefined when the text is not a phone number. */
export function normalizePhone(raw: string): string | undefined {
  let s = raw.trim().replace(/[\s().-]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  else if (s.startsWith('0')) s = `+${DEFAULT_COUNTRY_CODE}${s.slice(1)}`;
  else if (!s.startsWith('+') && s.startsWith(DEFAULT_COUNTRY_CODE)) s = `+${s}`;
  return /^\+[1-9]\d{7,14}$/.test(s) ? s : undefined;
}

/** `+231*****0201`: the country code and the last four digits, what an SMS screen shows. */
export function maskPhone(e164: string): string {
  const cc = e164.startsWith(`+${DEFAULT_COUNTRY_CODE}`) ? `+${DEFAULT_COUNTRY_CODE}` : e164.slice(0, 2);
  const tail = e164.slice(-4);
  return `${cc}${'*'.repeat(Math.max(e164.length - cc.length - tail.length, 0))}${tail}`;
}
