/**
 * Wrapping a reference app to break it (the broken variants of brokenServers.ts, scrapeVariants.ts): a handler
 * in front of the app's own, and reading the JSON bodies and paths it sees.
 */
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';

export type Json = Record<string, unknown>;
export type Next = (request: AppRequest) => Promise<AppResponse>;
export type Handler = (request: AppRequest, next: Next) => Promise<AppResponse>;

/** `app` with `handler` in front of its `handle`; `close` and `maxBodyBytes` are the app's own. */
export function around(app: ReferenceApp, handler: Handler): ReferenceApp {
  const next: Next = (request) => app.handle(request);
  return {
    ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
    handle: (request) => handler(request, next),
    close: () => app.close(),
  };
}

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body as a JSON object, or undefined. */
export function jsonObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The request's path, without query, fragment or a trailing slash. */
export const pathOf = (request: AppRequest): string => request.url.split(/[?#]/, 1)[0]!.replace(/(.)\/$/, '$1');

/**
 * The reference server, but every v2 crawl start is answered 500 (with `error` in the envelope), as by an
 * implementation whose crawler is down.
 */
export const failingCrawlStarts =
  (error = 'Internal error') =>
  (app: ReferenceApp): ReferenceApp =>
    around(app, (request, next) =>
      request.method === 'POST' && request.url.split('?')[0] === '/v2/crawl'
        ? Promise.resolve({
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ success: false, error }),
          })
        : next(request),
    );
