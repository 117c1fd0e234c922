// The spec's redirect rules 2-4: after a payment finishes, checkout returns the payer to the
// link's `redirect_url` with `svc_payment_id`, `svc_link` and `svc_status` appended, keeping
// the query parameters already there. (Rule 1, which URLs are allowed, is checked when the
// link is created: payment-links/domain.ts `checkRedirectUrl`.)

type ReturnStatus = 'completed' | 'failed' | 'expired';

export function returnUrl(redirectUrl: string, params: { paymentId: string | null; linkCode: string; status: ReturnStatus }): string {
  const url = new URL(redirectUrl);
  // `set`, not `append`: a redirect_url that already names one of ours gets the true value once.
  // An expired link has no payment; the parameter is still sent, empty, so all three are there.
  url.searchParams.set('svc_payment_id', params.paymentId ?? '');
  url.searchParams.set('svc_link', params.linkCode);
  url.searchParams.set('svc_status', params.status);
  return url.toString();
}

/** Seconds before a paid order returns to the seller on its own ("about 3 seconds"). */
export const AUTO_RETURN_SECONDS = 3;
