import { z } from 'zod';
import { bodyKeyProblem, MAX_KEY_LENGTH } from './idempotency.js';

// A body idempotency key (the redemptions' `idempotency_key`, a charge's cycle key) as a zod
// string, for the route schemas, the OpenAPI document and the client's types. The gateway
// checks these fields first, with the same rule (idempotency.ts), and answers 422
// IDEMPOTENCY_KEY_REQUIRED / IDEMPOTENCY_KEY_INVALID; this schema says the same thing again
// where a schema is read.

/**
 * Any Unicode string of 1 to 255 code points. zod's own min/max count UTF-16 units, so the
 * length is checked by the rule itself, and the document is told the limits directly: JSON
 * Schema's minLength/maxLength count code points, exactly as the rule does.
 */
export const bodyIdempotencyKey = () =>
  z
    .string()
    .superRefine((value, ctx) => {
      const problem = bodyKeyProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ minLength: 1, maxLength: MAX_KEY_LENGTH });
