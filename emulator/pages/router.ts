import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../services.js';
import { messagePage, sendPage } from './layout.js';
import { localOnly } from '../http/local-guard.js';
import { DOORS } from '../http/doors.js';
import { StoreWriteError, STORE_RETRY_AFTER_SECONDS } from '../store/store-write-error.js';
import { mountCheckout } from './checkout.js';
import { mountCardMandate } from './mandate.js';
import { mountWalletMandate } from './wallet-mandate.js';
import { mountPayrollApproval } from './payroll-approval.js';

// The hosted pages, mounted at /checkout ({checkout_url}). Server-rendered HTML with urlencoded
// form posts: they work without JavaScript. The approval pages come before `/:code`, whose
// link codes (PL-…) never collide with their names.

function checkoutPages(services: Services): Router {
  const router = express.Router();
  // Opened by top-level navigation from anywhere, so Origin is checked only on form posts.
  router.use(localOnly(services, DOORS.pages)); // also mounted before body parsing (app.ts)
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  // {checkout_url} itself, which `svc emulator start` prints: what lives under it.
  router.get('/', (_req: Request, res: Response) =>
    sendPage(res, 200, messagePage({ title: 'Hosted checkout' }, 'Hosted checkout', 'Payers pay a payment link on its own page here: /checkout/<link code>, the URL `svc links create` prints. The approval pages of card and wallet mandates and of payroll runs are here too.')),
  );
  mountCardMandate(router, services);
  mountWalletMandate(router, services);
  mountPayrollApproval(router, services);
  mountCheckout(router, services);

  router.use((_req: Request, res: Response) => {
    sendPage(res, 404, messagePage({ title: 'Page not found' }, 'Page not found', 'Check the address you were given.'));
  });
  router.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (err.status && err.status >= 400 && err.status < 500) {
      return sendPage(res, err.status, messagePage({ title: 'Form not accepted' }, 'Form not accepted', err.message));
    }
    if (err instanceof StoreWriteError) {
      // The disk refused the write and it was rolled back: what the JSON APIs answer 503 (row 223), as a page.
      res.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
      return sendPage(res, 503, messagePage({ title: 'Try again shortly' }, 'Try again shortly', `The emulator could not save this: ${err.reason}. Nothing was charged or approved; try again in a few seconds.`));
    }
    services.log.warn(`checkout page failed: ${err.stack ?? err.message}`);
    sendPage(res, 500, messagePage({ title: 'Something went wrong' }, 'Something went wrong', 'The emulator hit an internal error; see its console. Nothing was charged.'));
  });
  return router;
}

/** The registry's `http` hook: {checkout_url} is {base_url}/checkout. */
export function mountCheckoutPages(app: Express, services: Services): void {
  app.use('/checkout', checkoutPages(services));
}
