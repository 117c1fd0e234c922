import { z } from 'zod';

// Money is integer minor units in a JS number, exact only up to Number.MAX_SAFE_INTEGER; every
// stored balance stays in that range (emulator/money.ts addMoney guards each change).

export const MAX_MONEY = Number.MAX_SAFE_INTEGER;

/** A stored balance in minor units: a non-negative safe integer (fixtures). */
export const Balance = z.int().min(0).max(MAX_MONEY);
