import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';
import type { Environment } from '../resources/merchants/records.js';
import type { PaymentRecord } from '../resources/payments/domain.js';
import { debitUser, findUserByPhone, userBalance } from '../resources/users/domain.js';
import { checkPin, userPinSubject } from '../resources/users/pin-guard.js';
import { FieldProblem } from './checkout-errors.js';

// Paying a link from a service user's wallet: the payer names their wallet by phone and proves
// it is theirs with the PIN (wrong PINs count toward the user's lockout, users/pin-guard.ts).
// A wallet that cannot cover the amount makes a *failed* payment, as a wallet charge does;
// a wrong PIN makes no payment at all.

type WalletResult =
  | { ok: true; userName: string; debit: (payment: PaymentRecord) => void }
  | { ok: false; userName: string; reason: string };

export function payFromUserWallet(
  services: Services,
  tx: Transaction,
  input: { phone: string; pin: string; environment: Environment; currency: string; amount: number },
): WalletResult {
  const user = findUserByPhone(services, input.phone);
  if (!user) throw new FieldProblem('phone', 'No wallet account uses this phone number.');
  if (!/^\d{4,6}$/.test(input.pin)) throw new FieldProblem('pin', 'Your wallet PIN is 4 to 6 digits.');
  checkPin(services, tx, userPinSubject(user.id), user.pin_hash, input.pin);
  if (userBalance(user, input.environment, input.currency) < input.amount) {
    return { ok: false, userName: user.name, reason: `The wallet's ${input.currency} balance is too low for this payment.` };
  }
  return {
    ok: true,
    userName: user.name,
    debit: (payment) => debitUser(services, tx, user.id, input.environment, input.currency, input.amount, 'link_payment', payment.id),
  };
}
