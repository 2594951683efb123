/**
 * Webhook delivery of the reference server: each event is a JSON POST
 * `{success, type: "<crawl|batch_scrape>.<kind>", id, data, metadata, error?, webhookId}` with the webhook's
 * headers, less those that route or frame a request (`deliverableHeaders`). As the service as of 2026-08-21
 * (facts §13): an empty `events` list selects every event, and there is no `failed` event: a job that fails ends with `.completed`,
 * `success: false` and its `error` (the reference server's choice; the service states no final event of a failure). Deliveries are fire-and-forget (the job never waits for them), in order per job (one at a time),
 * each with a time limit, and never retried. Given a secret, each is signed (`X-Firecrawl-Signature`).
 *
 * Where they go: only to an address the server may connect to, loopback unless `allow` (`crawlspec serve
 * --allow-host`) adds hosts: a `Reach` (`reach.ts`) checks address literals before connecting and resolves
 * names to allowed addresses only, on every connection. A delivery never follows a redirect: a 30x is a
 * failed delivery, so neither the payload nor the caller's custom headers travel to another address (issue
 * 13, finding 5). node:http rather than fetch for the same reason as the fetcher: only node:http takes the
 * per-connection `lookup` that holds names to allowed addresses.
 *
 * What they hold (issue 13, findings 1 and 8): a job's webhook metadata is serialised once, when the job
 * starts, and spliced into each payload as it is sent; page data arrives as the JSON text of records the job
 * keeps anyway. A job's undelivered events wait in a queue of at most `MAX_QUEUED_EVENTS` events: past it,
 * page events are dropped (counted, never an error), while the final event (`completed`) is always
 * queued. A payload is built only when its delivery begins, and at most `MAX_DELIVERIES_IN_FLIGHT` deliveries
 * run at once in the whole server. `drop(jobId)` (a cancel) empties the job's queue; `forget(jobId)` (its
 * expiry) also aborts its delivery in flight; `close()` does both for every job.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { FetchGate } from './fetcher.js';
import type { Reach } from './reach.js';
import { stringifyJson } from './jsonText.js';
import { isWhatwgUrl } from '../../schemas/shared/whatwgUrl.js';
import { SIGNATURE_HEADER } from '../../schemas/codeRules/webhookHeaders.js';

export type WebhookEventKind = 'started' | 'page' | 'completed';

/** Undelivered events one job may have waiting; past it, its page events are dropped. */
export const MAX_QUEUED_EVENTS = 100;
/** Deliveries in flight at once, in the whole server. */
export const MAX_DELIVERIES_IN_FLIGHT = 16;

export interface WebhookTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string>>;
  /** The kinds of the events to deliver; undefined: every event. */
  readonly events: ReadonlySet<string> | undefined;
}

const stringMap = (value: unknown): Record<string, string> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
};

/**
 * Header names a webhook's `headers` may not set (issue 22, finding 13): the ones that say where a request
 * goes and how it is framed, which node:http writes itself (`Host`, `Content-Length`), and the hop-by-hop
 * fields of RFC 9110 §7.6.1, which belong to one connection and never to what a caller asks to be sent
 * (`Connection`, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`). Passed
 * on, they gave a receiver a request with its own Host, Upgrade and both Transfer-Encoding and Content-Length:
 * the shape of request smuggling. `Proxy-*` names (credentials for a proxy) go too, and so does every name a
 * `Connection` header lists.
 */
const NOT_SENT = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A webhook's headers without those it may not set (`NOT_SENT`, `Proxy-*`, and what its `Connection` lists); the
 * same rule is what the validating proxy forwards of a request and an answer (../proxy/proxy.ts), whose headers
 * may hold a list of values.
 */
export function deliverableHeaders<V extends string | readonly string[]>(headers: Readonly<Record<string, V>>): Record<string, V> {
  const listed = new Set<string>();
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'connection')
      for (const token of [value].flat().join(',').split(',')) listed.add(token.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => {
      const lower = name.toLowerCase();
      return !NOT_SENT.has(lower) && !lower.startsWith('proxy-') && !listed.has(lower);
    }),
  );
}

/** The target of a request's `webhook` (a bare address or the object form), if it has one. */
export function webhookTarget(webhook: unknown): WebhookTarget | undefined {
  if (typeof webhook === 'string') return { url: webhook, headers: {}, metadata: {}, events: undefined };
  if (typeof webhook !== 'object' || webhook === null || Array.isArray(webhook)) return undefined;
  const object = webhook as Record<string, unknown>;
  if (typeof object['url'] !== 'string') return undefined;
  const events = Array.isArray(object['events']) ? object['events'].filter((e): e is string => typeof e === 'string') : [];
  return {
    url: object['url'],
    headers: deliverableHeaders(stringMap(object['headers'])),
    metadata: stringMap(object['metadata']),
    // None listed (or `[]`, since 2026-05-08): every event.
    events: events.length === 0 ? undefined : new Set(events),
  };
}

export interface WebhookSenderOptions {
  /** Where deliveries may connect: loopback, and what its `allow` rule adds. */
  readonly reach: Reach;
  readonly timeoutMs: number;
  /**
   * The secret deliveries are signed with, if any: each carries `X-Firecrawl-Signature: sha256=<hex HMAC-SHA256 of
   * the body with it>`, as the service signs them when the team has one (facts §6.2).
   */
  readonly secret?: string;
}

interface QueuedEvent {
  readonly kind: WebhookEventKind;
  /** The JSON text of the event's `data` array. */
  readonly data: string;
  /** Why the job failed, on the `completed` event of a job that failed. */
  readonly error: string | undefined;
}

interface JobDeliveries {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: ReadonlySet<string> | undefined;
  /** `"crawl"` or `"batch_scrape"`: the first word of each event's type. */
  readonly prefix: string;
  /** The webhook's metadata as JSON text, made once. */
  readonly metadata: string;
  readonly queue: QueuedEvent[];
  /** Page events left out because the queue was full. */
  dropped: number;
  /** Whether a delivery loop runs for the job. */
  running: boolean;
  /** The final event is queued: once the queue is empty the job's state goes. */
  ended: boolean;
  /** The delivery in flight, to abort on `forget`. */
  controller: AbortController | undefined;
}


/** A delivery's signature: `sha256=` and the hex HMAC-SHA256 of its body with the secret. */
const signature = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #jobs = new Map<string, JobDeliveries>();
  readonly #gate = new FetchGate(MAX_DELIVERIES_IN_FLIGHT);
  readonly #closing = new AbortController();

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
  }

  /** Registers a job's webhook, if its address may be delivered to (else its events go nowhere). */
  open(jobId: string, jobKind: 'crawl' | 'batch', target: WebhookTarget): void {
    if (this.#closing.signal.aborted) return;
    const url = this.#allowed(target.url);
    if (url === undefined) return;
    this.#jobs.set(jobId, {
      url,
      headers: target.headers,
      events: target.events,
      prefix: jobKind === 'crawl' ? 'crawl' : 'batch_scrape',
      metadata: stringifyJson(target.metadata) ?? '{}',
      queue: [],
      dropped: 0,
      running: false,
      ended: false,
      controller: undefined,
    });
  }

  /**
   * Queues the event `kind` of a job, with `data` (the JSON text of an array of page records); `error`, on the
   * `completed` event of a job that failed, says why.
   */
  send(jobId: string, kind: WebhookEventKind, data = '[]', error?: string): void {
    const job = this.#jobs.get(jobId);
    if (job === undefined || job.ended || (job.events !== undefined && !job.events.has(kind))) {
      if (job !== undefined && kind === 'completed') this.#end(jobId, job);
      return;
    }
    if (kind === 'completed') job.ended = true;
    else if (job.queue.length >= MAX_QUEUED_EVENTS) {
      job.dropped += 1;
      return;
    }
    job.queue.push({ kind, data, error });
    if (!job.running) void this.#pump(jobId, job);
  }

  /** Empties a job's queue (its delivery in flight goes on); later events are still queued. */
  drop(jobId: string): void {
    const job = this.#jobs.get(jobId);
    if (job !== undefined) job.queue.length = 0;
  }

  /** Forgets a job: its queue is emptied and its delivery in flight aborted. */
  forget(jobId: string): void {
    const job = this.#jobs.get(jobId);
    if (job === undefined) return;
    job.queue.length = 0;
    job.controller?.abort();
    this.#jobs.delete(jobId);
  }

  /** Aborts every delivery in flight and drops every queue. */
  close(): void {
    this.#closing.abort();
    for (const id of [...this.#jobs.keys()]) this.forget(id);
  }

  /** Jobs with a webhook state, and events queued in all (for tests and load runs). */
  stats(): { readonly jobs: number; readonly queued: number } {
    let queued = 0;
    for (const job of this.#jobs.values()) queued += job.queue.length;
    return { jobs: this.#jobs.size, queued };
  }

  #end(jobId: string, job: JobDeliveries): void {
    job.ended = true;
    if (!job.running && job.queue.length === 0 && this.#jobs.get(jobId) === job) this.#jobs.delete(jobId);
  }

  #allowed(address: string): URL | undefined {
    if (!isWhatwgUrl(address)) return undefined;
    const url = new URL(address);
    const { reach } = this.#options;
    return reach.reachable(url) && reach.addressRefusal(url) === undefined ? url : undefined;
  }

  async #pump(jobId: string, job: JobDeliveries): Promise<void> {
    job.running = true;
    try {
      for (let event = job.queue.shift(); event !== undefined; event = job.queue.shift()) {
        if (this.#jobs.get(jobId) !== job) return;
        const controller = new AbortController();
        job.controller = controller;
        const signal = AbortSignal.any([controller.signal, this.#closing.signal]);
        let release: (() => void) | undefined;
        try {
          release = await this.#gate.acquire(signal);
          const payload =
            `{"success":${event.error === undefined},"type":${JSON.stringify(`${job.prefix}.${event.kind}`)},"id":${JSON.stringify(jobId)},` +
            `"data":${event.data},"metadata":${job.metadata},` +
            `${event.error === undefined ? '' : `"error":${JSON.stringify(event.error)},`}"webhookId":"${randomUUID()}"}`;
          await this.#post(job, payload, signal);
        } catch {
          // fire-and-forget: a receiver that fails, refuses, redirects or times out is not retried
        } finally {
          release?.();
          job.controller = undefined;
        }
      }
    } finally {
      job.running = false;
      if (job.ended && job.queue.length === 0 && this.#jobs.get(jobId) === job) this.#jobs.delete(jobId);
    }
  }

  /** One POST; resolves when the receiver answered 2xx, rejects otherwise (a redirect included). */
  async #post(job: JobDeliveries, payload: string, signal: AbortSignal): Promise<void> {
    const { reach, timeoutMs } = this.#options;
    // A timer of our own, not AbortSignal.timeout: under load, a timeout signal referenced only through
    // AbortSignal.any was seen never to fire (Node 20, attack 8 of `npm run load`), so that a receiver that
    // hangs held its job's queue forever.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const timed = AbortSignal.any([signal, deadline.signal]);
    try {
      await this.#request(job, payload, timed, reach);
    } finally {
      clearTimeout(timer);
    }
  }

  #request(job: JobDeliveries, payload: string, timed: AbortSignal, reach: Reach): Promise<void> {
    return new Promise((resolve, reject) => {
      const request = (job.url.protocol === 'https:' ? httpsRequest : httpRequest)(
        job.url,
        {
          method: 'POST',
          headers: {
            ...job.headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(payload)),
            ...(this.#options.secret === undefined ? {} : { [SIGNATURE_HEADER]: signature(this.#options.secret, payload) }),
          },
          lookup: reach.lookup,
          signal: timed,
          // One connection per delivery, looked up anew: nothing pooled outlives the job.
          agent: false,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          response.destroy(); // the answer's body is not read
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`the receiver answered ${status}`));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }
}
