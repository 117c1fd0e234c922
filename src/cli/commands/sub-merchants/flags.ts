import { API_FLAGS, WRITE_FLAGS, type FlagTable } from '../../flags.js';

const phone = { value: '<phone>', help: "manager's phone (E.164, e.g. +231770000201)", required: true } as const;

export const SUB_MERCHANTS = {
  create: {
    ...WRITE_FLAGS,
    name: { value: '<name>', help: 'merchant_name of the sub-merchant', required: true },
    phone,
    otp: { value: '<code>', help: 'the OTP from an earlier `svc sub-merchants start` (scripts): skips the start step' },
  },
  start: { ...WRITE_FLAGS, phone },
  list: API_FLAGS,
} as const satisfies Record<string, FlagTable>;
