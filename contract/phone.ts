import { z } from 'zod';
import { PHONE_DESCRIPTION, PHONE_PATTERN } from './phone-pattern.js';

// The phone number field's schema; what it accepts is phone-pattern.ts's expression.
export { PHONE_DESCRIPTION, PHONE_PATTERN } from './phone-pattern.js';

/** A phone number the service must be able to read (422 `VALIDATION_ERROR` otherwise). */
export const PhoneNumber = z
  .string()
  .min(1)
  .max(32)
  .regex(new RegExp(PHONE_PATTERN), 'is not a phone number (E.164, such as +231770000201)')
  .meta({ description: PHONE_DESCRIPTION, example: '+231770000201' });
