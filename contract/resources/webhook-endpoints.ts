import { z } from 'zod';
import { EventType, IsoTimestamp } from '../common.js';

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(EventType),
    secret_hint: z.string().meta({ description: 'The last 4 characters of the secret' }),
    environment: z.enum(['test', 'live']),
    created_at: IsoTimestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

export const CreateWebhookEndpoint = z
  .strictObject({
    url: z.string().max(2048),
    events: z
      .array(EventType)
      .min(1, 'must name at least one event (a specific list, not a firehose)')
      .refine((e) => new Set(e).size === e.length, 'must not repeat an event'),
  })
  .meta({ id: 'CreateWebhookEndpoint' });

export const CreatedWebhookEndpoint = z.object({
  endpoint: WebhookEndpoint,
  secret: z.string().meta({ description: '43 base64url characters; returned only once' }),
});

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export const DeletedWebhookEndpoint = z.object({ id: z.string(), deleted: z.literal(true) });
export const IdParams = z.object({ id: z.string() });

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
