import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { SCOPES } from './scopes.js';

// Primitives shared by every resource schema, the CLI client and the OpenAPI document.

/** The ISO-4217 codes this Node knows (its ICU data), upper case: what `Currency` accepts. */
export const ISO_4217_CODES = Intl.supportedValuesOf('currency').filter((c) => /^[A-Z]{3}$/.test(c));
const ISO_4217 = new Set(ISO_4217_CODES);

// The check stays a refine (its message names the rule); the document lists the codes as an
// enum, so a client generated from it knows every code the server takes.
export const Currency = z
  .string()
  .refine((c) => ISO_4217.has(c), { message: 'must be an ISO-4217 currency code in upper case, such as USD or LRD' })
  .meta({ id: 'Currency', description: 'ISO-4217 currency code, upper case', example: 'USD', enum: ISO_4217_CODES });

/** Currencies the service moves money in (mandates, payroll, payouts, wallets). */
export const WalletCurrency = z.enum(['USD', 'LRD']);

/** Integer minor units (1200 = 12.00). The upper bound keeps sums exact in a double. */
export const MinorUnits = z.int().min(1).max(100_000_000_000).meta({ description: 'Amount in minor units (1200 means 12.00)' });

export const IsoTimestamp = z.iso.datetime({ offset: true }).meta({ description: 'ISO-8601 timestamp', example: '2026-11-21T12:00:00.000000Z' });

export const PaymentMethod = z.enum(['card', 'momo', 'wallet']);
export const Environment = z.enum(['test', 'live']);

export const EVENT_TYPES = [
  'payment.completed',
  'payment.failed',
  'payroll_run.completed',
  'payroll_run.partial',
  'payroll_run.failed',
  'catalog.published',
  'inventory.low_stock',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = (typeof EVENT_TYPES)[number];

export { SCOPES };
export const Scope = z.enum(SCOPES);

/** The error envelope of an API whose routes answer with `codes` (each OpenAPI document lists its own). */
export const errorEnvelope = (codes: ErrorCode[]) =>
  z.object({ success: z.literal(false), error: z.object({ code: z.enum(codes), message: z.string() }) }).meta({ id: 'ErrorEnvelope' });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/**
 * For text that is trimmed before it is checked (a blank one is refused): the document's
 * pattern, "some character that is not white space" (JavaScript's \s is exactly what trim() removes).
 */
export const NOT_BLANK = { pattern: '\\S', description: 'Trimmed before it is checked; must hold a character that is not white space' };

/** Free-form JSON object, stored and echoed. */
export const Metadata = z.record(z.string(), z.unknown());
