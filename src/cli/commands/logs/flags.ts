import { API_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag } from '../../parse.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** A path prefix, as the control API takes it: refused here (exit 2) rather than as its 422. */
function pathPrefix(value: string): string {
  if (!value.startsWith('/')) throw new Error(`must start with /, e.g. /v1/api/payments (got "${value}").`);
  return value;
}

/** The filters list and tail share (the Stripe CLI's names for `stripe logs tail`). */
const FILTERS = {
  ...API_FLAGS,
  filterHttpMethod: { value: '<method>', help: 'only this method', parse: choiceFlag(METHODS) },
  filterRequestPath: { value: '<prefix>', help: 'only paths starting with this, e.g. /v1/api/payments', parse: pathPrefix },
  filterRequestStatus: { value: '<status>', help: 'SUCCEEDED (< 400) or FAILED (>= 400)', parse: choiceFlag(['SUCCEEDED', 'FAILED'] as const) },
  filterStatusCode: { value: '<code>', help: 'only this HTTP status', parse: intFlag(100, 599) },
  filterEnvironment: { value: '<env>', help: 'test or live', parse: choiceFlag(['test', 'live'] as const) },
  filterKey: { value: '<name>', help: 'only requests made with this key (its fixture name, e.g. acme-test)' },
} as const satisfies FlagTable;

export const LOGS = {
  list: {
    ...FILTERS,
    limit: { value: '<n>', help: 'entries (1 to 100)', parse: intFlag(1, 100), default: 20 },
    since: { value: '<time>', help: 'entries at or after this ISO time' },
  },
  get: { ...API_FLAGS, curl: { help: 'print the request as a curl command (the key as $SVC_API_KEY)' } },
  tail: FILTERS,
} as const satisfies Record<string, FlagTable>;
