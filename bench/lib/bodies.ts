// The POST body both write loads send: the emulator's payment-link create and the express + zod
// reference take the same fields, so the two rows compare the same parsing and validation work
// (the reference adds two fields to reach ten).

export const LINK_FIELDS = {
  title: 'Coffee beans, 1 kg',
  description: 'Single origin, roasted this week',
  amount: 1200,
  currency: 'USD',
  accepted_methods: ['card', 'momo'],
  expires_at: '2099-01-01T00:00:00Z',
  redirect_url: 'https://shop.example.com/thanks',
  metadata: { order_id: 'ord_1042', channel: 'web' },
};
