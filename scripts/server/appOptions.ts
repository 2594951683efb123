/**
 * The options of the reference app (`createReferenceApp`) and their defaults: its token, its public URL, its
 * clock and timing, the body and status page sizes, the hosts its jobs and webhooks may reach.
 */

export interface ReferenceAppOptions {
  /** The bearer token every API request must carry, or `'none'` to skip authentication. */
  readonly auth: { readonly token: string } | 'none';
  /** Base URL job addresses (and the synthetic site's addresses) are built from, e.g. `http://127.0.0.1:PORT`. */
  readonly publicUrl: () => string;
  /** Time each scraped page takes, in ms. Default 100. */
  readonly pageIntervalMs?: number;
  /** How long a job stays readable after it is created, in ms. Default 24 h. */
  readonly jobTtlMs?: number;
  /** The clock of creation and expiry times. Default `Date.now`. */
  readonly now?: () => number;
  /** Largest request body accepted, in bytes (UTF-8). Default 10 MB. */
  readonly maxBodyBytes?: number;
  /**
   * Page records a status answer holds when the request gives no `limit`. Default 100, the service's. A
   * smaller page lets a test watch clients that cannot choose one (the v2 SDK) follow `next`.
   */
  readonly statusPageSize?: number;
  /**
   * More hosts (names or addresses) webhooks are delivered to, on `port`, besides loopback (every port); a name
   * is connected to only at an address that is loopback or that this says yes to on every port (`port`
   * undefined). Default: none.
   */
  readonly allowWebhookHost?: (host: string, port: number | undefined) => boolean;
  /**
   * More hosts (names or addresses) jobs fetch pages from, on `port`, besides the server's own port on loopback:
   * other loopback ports are fetched from only when this says yes to them (issue 22, finding 7). A name is
   * connected to only at an address this says yes to on every port (`port` undefined), or a loopback address
   * of `localhost` or of a `resolveHosts` name. Default: none.
   */
  readonly allowFetchHost?: (host: string, port: number | undefined) => boolean;
  /**
   * Host name → IP address for jobs' fetches and webhook deliveries, instead of DNS (e.g. `crawlspec.example.com`
   * → `127.0.0.1`); the names it maps are fetched from on every port.
   */
  readonly resolveHosts?: Readonly<Record<string, string>>;
  /**
   * Status answers say `creditsUsed: -1`, as a self-hosted service without database authentication answers (it
   * knows no credits; the service since 2025-10-23). Default false: the pages scraped so far.
   */
  readonly creditsUnknown?: boolean;
  /** The secret webhook deliveries are signed with (`X-Firecrawl-Signature`, `webhooks.ts`); without it they are not signed. */
  readonly webhookSecret?: string;
}

export const DEFAULT_PAGE_INTERVAL_MS = 100;
export const DEFAULT_JOB_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const DEFAULT_STATUS_PAGE_SIZE = 100;
