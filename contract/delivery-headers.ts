// The headers of every webhook delivery attempt, as data: the delivery engine sends them
// (emulator/webhooks/sender.ts), `svc webhooks check` crafts its deliveries with them, the
// attempt log shows them and the OpenAPI document states them.

export const USER_AGENT = 'svc-emulator-webhooks/1';

/** The headers of one attempt; the signature is the only part that changes between attempts. */
export const attemptHeaders = (eventType: string, deliveryId: string, signature: string): Record<string, string> => ({
  'content-type': 'application/json',
  'user-agent': USER_AGENT,
  'svc-signature': signature,
  'svc-event': eventType,
  'svc-delivery': deliveryId,
});
