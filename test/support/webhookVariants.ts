/**
 * Broken variants of the reference server's webhooks, each with one defect, for proving that the kit's webhook
 * checks (scripts/contract/checks/webhooks/webhooks.ts) catch each, under the check that holds what it breaks and no other.
 * Shaped as test/support/brokenServers.ts's variants: each wraps a correct app, which is never changed.
 *
 * What a start asks of its webhook is broken by rewriting the start request before the app sees it (the webhook
 * dropped, its metadata, its headers, its events). What a delivery carries is broken on its way: the start's
 * webhook url is pointed at a relay on 127.0.0.1, which passes each delivery on to the receiver it was meant for,
 * changed (held back, dropped, its body or signature altered). The relay answers the server only once it has
 * passed the delivery on, so a job's deliveries reach the receiver one at a time, in the order the relay sends
 * them. It is started with the first start that has a webhook, and stopped with the app.
 */
import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import type { BrokenServer } from './brokenServerParts.js';
import { KIT_TARGET_WEBHOOK_SECRET } from './kitTarget.js';

type Json = Record<string, unknown>;
type Next = (request: AppRequest) => Promise<AppResponse>;

const VERSIONS = ['v1', 'v2'] as const;
/** `vN.webhook.<suffix>` for both versions. */
const both = (...suffixes: string[]): string[] => VERSIONS.flatMap((v) => suffixes.map((s) => `${v}.webhook.${s}`));

/** The request schema of a start (`v2/CrawlRequest`), or undefined for any other request. */
function startSchema(request: AppRequest): SchemaName | undefined {
  if (request.method.toUpperCase() !== 'POST') return undefined;
  const found = /^\/(v[12])\/(crawl|batch\/scrape)\/?$/.exec(request.url.split('?')[0]!);
  return found === null ? undefined : (`${found[1]}/${found[2] === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest'}` as SchemaName);
}

/**
 * A valid start's body as a JSON object with an object `webhook`, or undefined. Only a valid one: the defects are
 * in what is done with a webhook the server took, and a body it refuses (e.g. a webhook setting the signature
 * header, the webhookSignatureHeader rule) is still refused.
 */
function webhookOf(request: AppRequest): { body: Json; webhook: Json } | undefined {
  const schema = startSchema(request);
  if (schema === undefined) return undefined;
  try {
    const body = JSON.parse(request.body) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !validate(schema, body).valid) return undefined;
    const webhook = (body as Json)['webhook'];
    return typeof webhook === 'object' && webhook !== null && !Array.isArray(webhook)
      ? { body: body as Json, webhook: webhook as Json }
      : undefined;
  } catch {
    return undefined;
  }
}

/** `app` with the start requests that carry a webhook rewritten by `edit` (which changes the body in place). */
function rewriting(app: ReferenceApp, edit: (body: Json, webhook: Json) => Promise<void> | void, close = (): void => {}): ReferenceApp {
  const next: Next = (request) => app.handle(request);
  return {
    ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
    async handle(request) {
      const found = webhookOf(request);
      if (found === undefined) return next(request);
      await edit(found.body, found.webhook);
      return next({ ...request, body: JSON.stringify(found.body) });
    },
    close() {
      app.close();
      close();
    },
  };
}

/** A delivery on its way: its headers (lower-case names) and its body. */
interface Delivery {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** What the relay passes on of a delivery to one receiver, in order (a fresh `Change` per receiver address). */
type Change = (delivery: Delivery) => Delivery[];

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** POSTs `delivery` to `to` (a loopback receiver), resolving once it answered. */
function pass(to: string, delivery: Delivery): Promise<void> {
  const { host: _host, 'content-length': _length, connection: _connection, ...headers } = delivery.headers;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      to,
      { method: 'POST', headers: { ...headers, 'content-length': String(delivery.body.length) }, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve());
      },
    );
    request.on('error', reject);
    request.end(delivery.body);
  });
}

/** A relay on 127.0.0.1: `POST /<receiver address, URI-encoded>` passes the delivery on to it, changed by `change`. */
async function startRelay(change: () => Change): Promise<{ readonly url: string; readonly server: Server }> {
  const changes = new Map<string, Change>();
  const server = createServer((request, response) => {
    void (async () => {
      const to = decodeURIComponent((request.url ?? '/').slice(1));
      // Loopback only: the kit's receiver in these tests.
      if (new URL(to).hostname !== '127.0.0.1') throw new Error(`not a loopback receiver: ${to}`);
      const body = await readBody(request);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([n, v]) => [n, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      let changed = changes.get(to);
      if (changed === undefined) changes.set(to, (changed = change()));
      for (const delivery of changed({ headers, body })) await pass(to, delivery);
      response.writeHead(200).end();
    })().catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Nothing keeps the test process alive for it; the app's close() stops it.
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** `app` whose webhook deliveries go through a relay that changes them with `change`. */
function relayed(app: ReferenceApp, change: () => Change): ReferenceApp {
  let relay: Promise<{ readonly url: string; readonly server: Server }> | undefined;
  return rewriting(
    app,
    async (_body, webhook) => {
      relay ??= startRelay(change);
      const { url } = await relay;
      webhook['url'] = `${url}/${encodeURIComponent(String(webhook['url']))}`;
    },
    () =>
      void relay?.then(({ server }) => {
        server.close();
        server.closeAllConnections();
      }),
  );
}

const typeOf = (delivery: Delivery): string => {
  try {
    return String((JSON.parse(delivery.body.toString('utf8')) as Json)['type']);
  } catch {
    return '';
  }
};

/** The signature the kit's targets sign with (test/support/kitTarget.ts), over `body`. */
const signed = (body: Buffer, secret = KIT_TARGET_WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export const BROKEN_WEBHOOKS: readonly BrokenServer[] = [
  {
    name: 'webhook.dropped',
    defect: 'Starts are run without their webhook: nothing is ever delivered.',
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch', 'events'),
    wrap: (app) => rewriting(app, (body) => void delete body['webhook']),
  },
  {
    name: 'webhook.metadataDropped',
    defect: "The webhook's metadata is not echoed: every delivery carries metadata {}.",
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch'),
    wrap: (app) => rewriting(app, (_body, webhook) => void delete webhook['metadata']),
  },
  {
    name: 'webhook.headersDropped',
    defect: "The webhook's headers are not sent with its deliveries.",
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch'),
    wrap: (app) => rewriting(app, (_body, webhook) => void delete webhook['headers']),
  },
  {
    name: 'webhook.eventsIgnored',
    defect: "The webhook's events filter is ignored: every kind of event is delivered.",
    level: 'service',
    expectedFailingChecks: both('events'),
    wrap: (app) => rewriting(app, (_body, webhook) => void delete webhook['events']),
  },
  {
    name: 'webhook.emptyEventsNone',
    defect: 'A webhook whose events is [] gets no event, as the service did before 2026-05-08.',
    level: 'service',
    expectedFailingChecks: both('batch'),
    wrap: (app) =>
      rewriting(app, (body, webhook) => {
        if (Array.isArray(webhook['events']) && webhook['events'].length === 0) delete body['webhook'];
      }),
  },
  {
    name: 'webhook.outOfOrder',
    defect: "A job's started event is delivered after its first page event.",
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch'),
    wrap: (app) =>
      relayed(app, () => {
        let held: Delivery | undefined;
        return (delivery) => {
          if (typeOf(delivery).endsWith('.started')) {
            held = delivery;
            return [];
          }
          const out = held === undefined ? [delivery] : [delivery, held];
          held = undefined;
          return out;
        };
      }),
  },
  {
    name: 'webhook.pageMissing',
    defect: "A job's first page event is never delivered.",
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch'),
    wrap: (app) =>
      relayed(app, () => {
        let dropped = false;
        return (delivery) => {
          if (dropped || !typeOf(delivery).endsWith('.page')) return [delivery];
          dropped = true;
          return [];
        };
      }),
  },
  {
    name: 'webhook.signatureWrong',
    defect: 'Deliveries are signed with another secret than the one the target was given.',
    level: 'service',
    expectedFailingChecks: both('signature'),
    wrap: (app) =>
      relayed(app, () => (delivery) => [
        { ...delivery, headers: { ...delivery.headers, 'x-firecrawl-signature': signed(delivery.body, 'another secret') } },
      ]),
  },
  {
    name: 'webhook.bodyInvalid',
    defect: 'Deliveries carry success as the string "true" instead of a boolean (and are signed as sent).',
    level: 'service',
    expectedFailingChecks: both('crawl', 'batch'),
    wrap: (app) =>
      relayed(app, () => (delivery) => {
        const event = JSON.parse(delivery.body.toString('utf8')) as Json;
        const body = Buffer.from(JSON.stringify({ ...event, success: String(event['success']) }));
        return [{ headers: { ...delivery.headers, 'x-firecrawl-signature': signed(body) }, body }];
      }),
  },
];
