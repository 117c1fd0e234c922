import { API_FLAGS, type FlagTable } from '../../flags.js';

const profile = { profile: { value: '<name>', help: 'profile to change (default: $SVC_PROFILE or the current profile)' } } as const;

export const CONFIG = {
  set: profile,
  get: profile,
  list: { json: { help: 'print the profiles as JSON (keys masked)' } },
  use: {},
  show: API_FLAGS,
  path: {},
} as const satisfies Record<string, FlagTable>;
