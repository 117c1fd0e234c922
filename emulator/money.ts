import { MAX_MONEY } from '../contract/money.js';
import { ApiError } from './errors.js';

// Every amount, balance and running total is an integer number of minor units held in a JS
// number, which is exact only up to Number.MAX_SAFE_INTEGER (2^53 − 1); past it, `+` rounds
// silently. So every balance or total changes through addMoney, which refuses (422) a change
// that would leave the safe range, and fixtures' balances are checked by the same bound.

/** `held + amount`, exact; 422 VALIDATION_ERROR when the result would not be a safe integer. */
export function addMoney(what: string, held: number, amount: number): number {
  if (!Number.isSafeInteger(held) || !Number.isSafeInteger(amount)) throw new Error(`${what}: money is integer minor units, got ${held} + ${amount}`);
  const result = held + amount;
  if (!Number.isSafeInteger(result)) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `amount: ${what} holds ${held} (minor units); adding ${amount} would pass ${MAX_MONEY}, the most it can hold exactly`,
    );
  }
  return result;
}
