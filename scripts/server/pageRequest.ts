/**
 * What a page's fetch sends, from the scrape options of its job (`ScrapeSettings`, the scrape oracle's reading
 * of them with the defaults of each version, `schemas/scrape/settings.ts`):
 *
 *   - `headers` (interface §2.3, "Headers sent with the request"): each one, by its lower-case name, over the
 *     server's own (`fetcher.ts`: user agent, Accept, Accept-Encoding), less those that route or frame a
 *     request or belong to one connection (`Host`, `Content-Length`, the hop-by-hop fields, `Proxy-*`: the
 *     rule webhook headers follow, `deliverableHeaders`). A name or value HTTP cannot carry, or more than
 *     `MAX_HEADERS` headers or `MAX_HEADER_BYTES` of them, is refused: the page is then an error of its job
 *     that says so, never a request sent without them;
 *   - `mobile` (a mobile device emulated): a mobile browser's user agent, `MOBILE_USER_AGENT` (service level:
 *     the interface does not say how a device is emulated); the caller's own `User-Agent` wins over it;
 *   - `location.languages` (interface §2.5, "Languages to emulate"): `Accept-Language` with those tags, in
 *     the order given, each after the first with a lower weight (service level: how languages are emulated);
 *   - `skipTlsVerification`, and `timeout` (at most the fetcher's own bound).
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { ScrapeSettings } from '../../schemas/scrape/settings.js';
import { deliverableHeaders } from './webhooks.js';

/** The user agent of a scrape with `mobile`: a phone's browser, and this server's name. */
export const MOBILE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 crawlspec-reference-server';
/** Headers of a scrape's `headers` sent at most. */
export const MAX_HEADERS = 100;
/** Bytes of a scrape's `headers` (names and values) sent at most. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface PageRequest {
  /** Headers sent over the server's own, by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly skipTlsVerification: boolean;
  readonly timeoutMs: number;
}

/** `Accept-Language` for `languages`: the first as it is, the others with weights 0.9, 0.8... (at least 0.1). */
export function acceptLanguage(languages: readonly string[]): string {
  return languages.map((tag, i) => (i === 0 ? tag : `${tag};q=${Math.max(1, 10 - i) / 10}`)).join(', ');
}

/** What a page's fetch sends under `settings`, or why it cannot be sent (`refused`). */
export function pageRequest(settings: ScrapeSettings): PageRequest | { readonly refused: string } {
  const headers: Record<string, string> = {};
  if (settings.mobile) headers['user-agent'] = MOBILE_USER_AGENT;
  if (settings.languages.length > 0) headers['accept-language'] = acceptLanguage(settings.languages);
  const given = Object.entries(deliverableHeaders(settings.headers));
  if (given.length > MAX_HEADERS)
    return { refused: `the scrape options' headers name ${given.length} headers; the reference server sends at most ${MAX_HEADERS}` };
  let bytes = 0;
  for (const [name, value] of given) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { refused: `the scrape options' header ${JSON.stringify(name.slice(0, 100))} cannot be sent (${why})` };
    }
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    headers[name.toLowerCase()] = value;
  }
  if (bytes > MAX_HEADER_BYTES)
    return { refused: `the scrape options' headers are ${bytes} bytes; the reference server sends at most ${MAX_HEADER_BYTES}` };
  return { headers, skipTlsVerification: settings.skipTlsVerification, timeoutMs: settings.timeout };
}
