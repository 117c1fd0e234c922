import express from 'express';
import { z } from 'zod';
import { listenAndAnnounce } from './listen.js';

// Reference: an express 5 route that parses a JSON body and validates 10 fields with zod,
// then answers it. The emulator's POST is judged against this (auth, idempotency, the store
// and the journal write are what it adds).

const ReferenceBody = z.strictObject({
  title: z.string().min(1).max(200),
  description: z.string().max(2000),
  amount: z.int().min(1),
  currency: z.enum(['USD', 'LRD']),
  accepted_methods: z.array(z.enum(['card', 'momo', 'wallet'])).min(1),
  expires_at: z.iso.datetime({ offset: true }),
  redirect_url: z.url(),
  metadata: z.record(z.string(), z.string()),
  customer_email: z.email(),
  reference: z.string().max(64),
});

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json({ type: () => true, limit: '1mb' }));
app.post('/items', (req, res) => {
  const parsed = ReferenceBody.safeParse(req.body);
  if (!parsed.success) {
    res.status(422).json({ success: false, error: { code: 'VALIDATION_ERROR', message: parsed.error.message } });
    return;
  }
  res.status(201).json({ success: true, data: { id: 'item_reference', ...parsed.data } });
});
listenAndAnnounce(app);
