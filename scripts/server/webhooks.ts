/**
 * Webhook delivery of the reference server: each event is a JSON POST
 * `{success: true, type: "<crawl|batch_scrape>.<kind>", id, data, metadata, webhookId}` with the webhook's
 * headers. Deliveries are fire-and-forget (the job never waits for them), in order per job (one at a time),
 * each with a time limit; addresses whose host the allow rule refuses are silently skipped. `close()` aborts
 * what is in flight and drops what is queued.
 */
import { randomUUID } from 'node:crypto';
import type { PageRecord } from './documents.js';

export type WebhookEventKind = 'started' | 'page' | 'completed' | 'failed';

const ALL_EVENTS: readonly WebhookEventKind[] = ['completed', 'failed', 'page', 'started'];

export interface WebhookTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string>>;
  readonly events: ReadonlySet<string>;
}

const stringMap = (value: unknown): Record<string, string> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
};

/** The target of a request's `webhook` (a bare address or the object form), if it has one. */
export function webhookTarget(webhook: unknown): WebhookTarget | undefined {
  if (typeof webhook === 'string') return { url: webhook, headers: {}, metadata: {}, events: new Set(ALL_EVENTS) };
  if (typeof webhook !== 'object' || webhook === null || Array.isArray(webhook)) return undefined;
  const object = webhook as Record<string, unknown>;
  if (typeof object['url'] !== 'string') return undefined;
  const events = Array.isArray(object['events']) ? object['events'].filter((e): e is string => typeof e === 'string') : ALL_EVENTS;
  return { url: object['url'], headers: stringMap(object['headers']), metadata: stringMap(object['metadata']), events: new Set(events) };
}

/** The default allow rule: loopback hosts only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export interface WebhookSenderOptions {
  readonly allowHost: (host: string) => boolean;
  readonly timeoutMs: number;
}

export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  /** The tail of each job's delivery chain. */
  readonly #chains = new Map<string, Promise<void>>();
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
  }

  /** Queues the event `kind` of job `jobId` for delivery, if the target wants it and its host is allowed. */
  send(target: WebhookTarget, jobKind: 'crawl' | 'batch', jobId: string, kind: WebhookEventKind, data: readonly PageRecord[] = []): void {
    if (this.#closed || !target.events.has(kind) || !this.#allowed(target.url)) return;
    const payload = JSON.stringify({
      success: true,
      type: `${jobKind === 'crawl' ? 'crawl' : 'batch_scrape'}.${kind}`,
      id: jobId,
      data,
      metadata: target.metadata,
      webhookId: randomUUID(),
    });
    const previous = this.#chains.get(jobId) ?? Promise.resolve();
    const next = previous.then(() => this.#deliver(target, payload));
    this.#chains.set(jobId, next);
    void next.then(() => {
      if (this.#chains.get(jobId) === next) this.#chains.delete(jobId);
    });
  }

  /** Aborts every delivery in flight and drops the queued ones. */
  close(): void {
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
    this.#chains.clear();
  }

  #allowed(url: string): boolean {
    try {
      const parsed = new URL(url);
      return (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') && this.#options.allowHost(parsed.hostname.replace(/^\[|\]$/g, ''))
      );
    } catch {
      return false;
    }
  }

  async #deliver(target: WebhookTarget, payload: string): Promise<void> {
    if (this.#closed) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#options.timeoutMs);
    this.#inFlight.add(controller);
    try {
      const headers = new Headers({ 'content-type': 'application/json' });
      for (const [name, value] of Object.entries(target.headers)) headers.set(name, value);
      const response = await fetch(target.url, {
        method: 'POST',
        headers,
        body: payload,
        signal: controller.signal,
      });
      await response.body?.cancel();
    } catch {
      // fire-and-forget: a receiver that fails, refuses or times out is not retried
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(controller);
    }
  }
}
