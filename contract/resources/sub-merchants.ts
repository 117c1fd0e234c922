import { z } from 'zod';
import { IsoTimestamp, NOT_BLANK } from '../common.js';
import { PHONE_DESCRIPTION, PhoneNumber } from '../phone.js';

const Phone = PhoneNumber.meta({ description: `The manager's phone. ${PHONE_DESCRIPTION}` });

export const StartSubMerchant = z.strictObject({ manager_phone: Phone }).meta({ id: 'StartSubMerchant' });

export const StartedSubMerchant = z
  .object({ masked_phone: z.string(), expires_in_seconds: z.int() })
  .meta({ id: 'StartedSubMerchant' });

export const CompleteSubMerchant = z
  .strictObject({
    merchant_name: z.string().trim().min(1, 'must not be empty').max(200).meta(NOT_BLANK),
    manager_phone: Phone,
    otp: z.string().min(1).max(12).meta({ description: 'The code sent by SMS (on the emulator: its console, or `svc emulator otp <phone>`)' }),
  })
  .meta({ id: 'CompleteSubMerchant' });

export const SubMerchant = z
  .object({ id: z.string(), merchant_name: z.string(), created_at: IsoTimestamp })
  .meta({ id: 'SubMerchant' });

export const SubMerchantList = z.object({ sub_merchants: z.array(SubMerchant) }).meta({ id: 'SubMerchantList' });

export type StartSubMerchant = z.infer<typeof StartSubMerchant>;
export type CompleteSubMerchant = z.infer<typeof CompleteSubMerchant>;
export type SubMerchantPublic = z.infer<typeof SubMerchant>;
