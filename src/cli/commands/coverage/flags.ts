import { API_FLAGS, type FlagTable } from '../../flags.js';
import { patternList } from '../../parse.js';

export const COVERAGE = {
  ...API_FLAGS,
  ignore: { value: '<pattern>', help: 'leave out items you do not use, e.g. payroll (repeatable or comma-separated; * matches anything)', parse: patternList },
} as const satisfies FlagTable;
