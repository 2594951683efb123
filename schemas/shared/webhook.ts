import { Type } from '@sinclair/typebox';
import { Named, fromInterface, fromService, fromServiceSince, serviceSince, use } from '../annotations.js';
import { StringMap } from './stringMap.js';

/** The event suffixes a webhook can subscribe to. */
export const WebhookEventKind = Named(
  'WebhookEventKind',
  Type.Union([Type.Literal('started'), Type.Literal('page'), Type.Literal('completed'), Type.Literal('failed')], {
    description:
      'Event kind: `started` when the job starts, `page` for each page scraped successfully, `completed` when the job ends (also after a cancel), `failed` (accepted, but no event of that kind is sent).',
    ...fromService(),
  }),
);

export const WebhookObject = Named(
  'WebhookObject',
  Type.Object(
    {
      url: Type.String({
        format: 'uri',
        description: 'Address the service POSTs events to.',
        examples: ['https://hooks.example.com/crawl'],
        ...fromService(),
      }),
      headers: Type.Optional(use(StringMap, { description: 'Headers sent with every delivery.', default: {}, ...fromService() })),
      metadata: Type.Optional(
        use(StringMap, {
          description: 'Caller data echoed back as `metadata` in every event payload. Values must be strings.',
          default: {},
          ...fromService(),
        }),
      ),
      events: Type.Optional(
        Type.Array(WebhookEventKind, {
          description:
            'Event kinds to deliver; an event is delivered when its full name (`crawl.page`) or its kind (`page`) is listed. An empty list delivers every event (since 2026-05-08; before, it delivered none).',
          default: ['completed', 'failed', 'page', 'started'],
          ...fromService(),
          ...serviceSince({ description: '2026-05-08' }),
        }),
      ),
    },
    { additionalProperties: false, description: 'Webhook specification in object form.', ...fromService() },
  ),
);

/** A webhook is either a bare address (shorthand for `{url}`) or the object form. */
export const Webhook = Named(
  'Webhook',
  Type.Union([Type.String({ format: 'uri', description: 'Shorthand for `{ "url": <this string> }`.', ...fromService() }), WebhookObject], {
    description: 'Webhook specification: where job events are delivered.',
    ...fromInterface('§6'),
  }),
);
