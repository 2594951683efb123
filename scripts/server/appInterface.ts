/**
 * What a reference app is to those who call it: the request it is handed and the response it gives (no sockets:
 * `http.ts` puts an app on a port), the `ReferenceApp` interface anything can wrap, and `InMemoryReferenceApp`, the
 * app `createReferenceApp` makes, which also tells what it holds (`stats()`).
 */

export interface AppRequest {
  readonly method: string;
  /** Path and query, e.g. `/v2/crawl/<id>?skip=10`. */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface AppResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ReferenceApp {
  handle(request: AppRequest): Promise<AppResponse>;
  /**
   * The answer to give before a request's body is read, or undefined to read it: a request to an API route
   * without valid credentials, or a start whose Content-Type is not JSON, is refused from its headers alone, so
   * that nobody without a token makes the server read or parse a body (issue 13, finding 9).
   */
  refuseUnread?(request: Omit<AppRequest, 'body'>): AppResponse | undefined;
  /** Stops every timer, fetch and pending webhook delivery; jobs stop progressing. */
  close(): void;
  /** The body size limit `handle` applies (so an HTTP adapter can stop reading early). */
  readonly maxBodyBytes?: number;
}

/** What the app holds in memory: each of these is dropped once it expires, whether anyone asks or not. */
export interface ReferenceAppStats {
  /** Jobs, running or ended, until their `expiresAt`. */
  readonly jobs: number;
  /** Ids of expired jobs, remembered to answer `Job expired` for another `jobTtlMs`. */
  readonly expiredIds: number;
  /** Idempotency keys used, remembered for `jobTtlMs`. */
  readonly idempotencyKeys: number;
  /** Page records reserved by jobs not yet expired (`records.ts`). */
  readonly heldPages: number;
  /** Bytes held by jobs not yet expired: their requests and their records' text. */
  readonly heldBytes: number;
  /** Jobs with webhook events to deliver, and the events queued in all. */
  readonly webhookJobs: number;
  readonly webhookEventsQueued: number;
  /** Pages in the page cache, and the bytes it counts for them (within `heldBytes`). */
  readonly cachedPages: number;
  readonly cachedBytes: number;
}

/** The app `createReferenceApp` makes: a `ReferenceApp` that also tells what it holds (for tests and load runs). */
export interface InMemoryReferenceApp extends ReferenceApp {
  stats(): ReferenceAppStats;
}
