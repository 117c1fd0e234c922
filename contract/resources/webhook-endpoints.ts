import { z } from 'zod';
import { EventType, IsoTimestamp } from '../common.js';
import { WEBHOOK_URL_DESCRIPTION, WEBHOOK_URL_PATTERN } from '../urls.js';

/** 32 random bytes in base64url, no padding: exactly 43 characters. */
const SECRET_PATTERN = '^[A-Za-z0-9_-]{43}$';

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
    // The check is checkUrl in the domain (it depends on the environment and --allow-host); the pattern states it.
    url: z.string().max(2048).meta({ pattern: WEBHOOK_URL_PATTERN, description: WEBHOOK_URL_DESCRIPTION }),
    events: z
      .array(EventType)
      .min(1, 'must name at least one event (a specific list, not a firehose)')
      .refine((e) => new Set(e).size === e.length, 'must not repeat an event')
      .meta({ uniqueItems: true, description: 'The event types to receive, each at most once' }),
  })
  .meta({ id: 'CreateWebhookEndpoint' });

export const CreatedWebhookEndpoint = z.object({
  endpoint: WebhookEndpoint,
  secret: z
    .string()
    .regex(new RegExp(SECRET_PATTERN))
    .meta({ description: "The signing secret: 43 base64url characters (32 random bytes), no prefix; returned only once. Svc-Signature's HMAC key is its UTF-8 bytes (see the document's webhooks)" }),
});

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export const DeletedWebhookEndpoint = z.object({ id: z.string(), deleted: z.literal(true) });
export const IdParams = z.object({ id: z.string().min(1) });

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
