import { z } from 'zod';
import { IsoTimestamp } from '../common.js';
import { COVERAGE_KINDS } from '../coverage.js';

// GET /_emulator/coverage: what the requests and deliveries since the count began exercised of
// the contract's inventory (contract/coverage.ts), and POST /_emulator/coverage/reset.

const Kind = z.enum(COVERAGE_KINDS);
const Percent = z.number().min(0).max(100).meta({ description: 'Covered of the items not ignored, one decimal' });

export const CoverageItem = z
  .object({
    kind: Kind,
    name: z.string().meta({ description: 'The route template with its status (and error code), the event type, the delivery outcome or the flow' }),
    covered: z.boolean(),
    count: z.int().min(0).meta({ description: 'Answers (route, error, flow) or deliveries (event, delivery) that exercised it' }),
    how: z.string().meta({ description: 'One line on how to exercise it from a test' }),
    ignored: z.boolean().meta({ description: 'Named by an ignore pattern: counted apart, not in the percentages' }),
  })
  .meta({ id: 'CoverageItem' });

export const CoverageReport = z
  .object({
    since: IsoTimestamp.meta({ description: 'When the count began (emulator clock): the first start on this data dir, or the last reset' }),
    percent: Percent,
    covered: z.int().min(0),
    total: z.int().min(0).meta({ description: 'Items not ignored' }),
    ignored: z.int().min(0),
    kinds: z.array(z.object({ kind: Kind, covered: z.int().min(0), total: z.int().min(0), ignored: z.int().min(0), percent: Percent })),
    uncovered_top: z.array(CoverageItem).max(10).meta({ description: 'The ten most important items not covered (nor ignored)' }),
    unmatched_ignore: z.array(z.string()).meta({ description: 'Ignore patterns that named no item' }),
    items: z.array(CoverageItem),
  })
  .meta({ id: 'CoverageReport' });

export const CoverageQuery = z.strictObject({
  ignore: z
    .string()
    .optional()
    .meta({ description: 'Comma-separated patterns of items the merchant does not use (e.g. payroll): case-insensitive, * matches anything, found anywhere in the name' }),
});
