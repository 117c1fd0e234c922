import { defineControl, type ControlRoute } from '../../control/route.js';
import { invalid } from '../../errors.js';
import { normalizePhone } from '../users/phone.js';
import { inbox } from './otp.js';

// The phone's SMS inbox, for `svc emulator otp <phone>` and tests.

export const subMerchantControlRoutes: ControlRoute[] = [
  defineControl('otpInbox', {
    handler: (s, { params }) => {
      const phone = normalizePhone(params.phone);
      if (!phone) throw invalid('phone', 'is not a phone number (E.164, such as +231770000201)');
      return { messages: inbox(s, phone) };
    },
  }),
];
