import { API_FLAGS, type FlagTable } from '../../flags.js';
import { intFlag, repeatable } from '../../parse.js';

/** --env NAME=VALUE, repeatable. */
function envFlag(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(value);
  if (!m) throw new Error(`expected NAME=VALUE (e.g. AMOUNT=500), got "${value}".`);
  return { ...previous, [m[1]]: m[2] };
}

/** What check and run read a file with: its variables and overrides. */
const INPUTS = {
  env: { value: '<NAME=VALUE>', help: 'a value for ${.env:NAME} (repeatable; overrides the file\'s env default)', parse: envFlag },
  set: { value: '<step.path=value>', help: "override one field of one step's body, e.g. link.amount=500 (repeatable; JSON values, else text)", parse: repeatable },
} as const satisfies FlagTable;

const { apiKey, baseUrl, profile, controlToken, timeout, json } = API_FLAGS;

export const SCENARIO = {
  run: {
    apiKey,
    baseUrl,
    profile,
    controlToken,
    timeout,
    ...INPUTS,
    only: { value: '<step>', help: 'run only this step (repeatable); the others are reported skipped', parse: repeatable },
    skip: { value: '<step>', help: 'skip this step (repeatable)', parse: repeatable },
    json: { help: 'print the report as one JSON document on stdout' },
    junit: { value: '<file>', help: 'also write the report as JUnit XML (a testcase a step) for CI' },
    live: { help: 'allow a live key (svc_live_…): steps for test keys only are skipped; without it a live key is refused' },
    webhookUrl: { value: '<url>', help: 'a public URL that forwards to --webhook-listen: webhook steps against a host that is not the emulator' },
    webhookListen: { value: '<port>', help: 'local port of the receiver behind --webhook-url', parse: intFlag(1, 65535) },
  },
  check: { ...INPUTS, json },
  list: { json },
} as const satisfies Record<string, FlagTable>;
