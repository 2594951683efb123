/**
 * The one definition of a valid crawl or scrape address (crawl `url`, each batch `urls` entry).
 *
 * The interface only says "a URL"; the public service decides, and reports the failed clause's message.
 * The clauses, checked in order; the first that fails gives the message:
 *
 *   1. It is a string. Else `Expected string`.
 *   2. Scheme-less shorthand: unless the string starts with `<one or more characters other than "." and
 *      ":">://`, `http://` is put in front (`example.com/a` → `http://example.com/a`, `localhost:3000` →
 *      `http://localhost:3000`). Every later clause looks at the result.
 *   2b. The host as written is no longer than DNS allows: no label of more than 63 characters, at most 253 in
 *      all (IPv6 in brackets aside). Else `URL must have a valid top-level domain or be an IP address`. Such a
 *      host can never be resolved, and WHATWG punycodes a long internationalised label in more than linear time.
 *   3. It parses as a WHATWG URL (`parseUrl`, whatwgUrl.ts). Else `Invalid URL`.
 *   4. The scheme is `http` or `https`, in any letter case. Else `URL uses unsupported protocol`.
 *   5. Take the text after the leading `scheme://` up to the first `.`, `/`, `\`, `?`, `#` or `[` (or to the
 *      end). It holds no `:`, except one followed by one or more digits up to that point (a port). Else
 *      `Invalid URL`. This rejects a second scheme or a password before the host (`http://http://example.com`,
 *      `http://user:pw@example.com`, `mailto:a@example.com`), while `http://example.com/http://x`,
 *      `http://[::1]:3000/` and `http://localhost:3000` (left to clause 6) pass it.
 *   6. The host, as WHATWG reads it (`new URL(s).hostname`), is an IP address (IPv4, or IPv6 in brackets), or a
 *      domain name of at least two labels, none empty, whose last label is a top-level domain of the ICANN section
 *      of the Public Suffix List (`topLevelDomains.ts`; an internationalised one as WHATWG punycodes it, `xn--p1ai`
 *      for `рф`): the newer service requires a public suffix, so `image_0001.jpg` (a file name), `example.zz` and
 *      `intranet.local` are no hosts. A host written with a trailing `.` is invalid too, also where WHATWG drops
 *      it (IPv4). Else `URL must have a valid top-level domain or be an IP address`.
 *
 * Clause 5 is the service's check that the text before the first "." holds exactly one ":", narrowed so that
 * it stops at a path and at an IPv6 host and allows a port: as the service words it, every IPv6 address and
 * every dotless host with a port would fail it, so clause 6 would never accept an IPv6 address.
 *
 * WHATWG reading, which clauses 3 and 6 inherit: leading and trailing spaces and control characters are
 * trimmed and tabs and newlines removed anywhere; hosts are percent-decoded, lower-cased and IDNA-mapped
 * (`example%2Ecom` and `example。com` are `example.com`); IPv4 is read in any form the standard allows
 * (`http://134744072` is `8.8.8.8`, `http://127.1` is `127.0.0.1`); a host whose last label is a number must
 * be an IPv4 address, so `http://example.123` already fails clause 3.
 *
 * Most addresses clients send are plain: `plainOriginEnd` recognises those with one pass over the scheme and
 * host, without parsing them (WHATWG parsing is most of the cost of checking a body), and every other string
 * takes the clauses.
 *
 * No pattern here can backtrack more than linearly (test/redos.test.ts checks each); nothing throws,
 * whatever the input.
 */

import { isIcannTopLevel, isIcannTopLevelAt } from './topLevelDomains.js';
import { isWhatwgUrl, parseUrl } from './whatwgUrl.js';

/** Messages the public service gives, by clause. */
export const CRAWL_URL_MESSAGES = {
  notString: 'Expected string',
  invalid: 'Invalid URL',
  protocol: 'URL uses unsupported protocol',
  host: 'URL must have a valid top-level domain or be an IP address',
} as const;

/** WHATWG serialises every IPv4 address as four decimal parts. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * A plain address, which passes every clause: `http://` or `https://` (any letter case), then a host of labels
 * made of ASCII letters, digits and hyphens, none empty, none longer than 63 and none starting with `xn--`, at
 * most 253 in all, ending in a top-level domain of letters that the ICANN section lists, then nothing or a `/`, `?` or `#` and anything after it. Clause 2 leaves it as it
 * is; WHATWG parses it (nothing after the host can make parsing fail: a path, query or fragment is only
 * percent-encoded) and changes its host only by lower-casing it, so clauses 3 to 6 hold. Hosts with a punycode
 * label (`xn--`), which WHATWG decodes and may refuse, are left to the clauses, and so are ports.
 *
 * `plainOriginEnd` reads the scheme and host once, character by character, allocating nothing (a regular
 * expression and its punycode check were two passes over the whole address), and says where what follows the
 * host starts: the index just past the `/`, `?` or `#` that ends the host (so the text before it is an origin
 * any address starting with it shares), the length when the host ends the address, or -1 when the address is
 * not plain.
 */
export function plainOriginEnd(s: string): number {
  const n = s.length;
  // `http` or `https` in any letter case (`| 0x20` lower-cases an ASCII letter), then `://`.
  if ((s.charCodeAt(0) | 0x20) !== 0x68 || (s.charCodeAt(1) | 0x20) !== 0x74 || (s.charCodeAt(2) | 0x20) !== 0x74) return -1;
  if ((s.charCodeAt(3) | 0x20) !== 0x70) return -1;
  let i = (s.charCodeAt(4) | 0x20) === 0x73 ? 5 : 4;
  if (s.charCodeAt(i) !== 0x3a || s.charCodeAt(i + 1) !== 0x2f || s.charCodeAt(i + 2) !== 0x2f) return -1;
  i += 3;
  const hostStart = i;
  let labelStart = i;
  let dots = 0;
  let lettersOnly = true;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 0x20;
    if (lower >= 0x61 && lower <= 0x7a) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      lettersOnly = false;
      continue;
    }
    if (c !== 0x2e) break;
    if (i === labelStart || i - labelStart > MAX_LABEL_LENGTH || isPunycodeLabel(s, labelStart)) return -1;
    dots += 1;
    labelStart = i + 1;
    lettersOnly = true;
  }
  const topLevel = i - labelStart;
  if (dots === 0 || !lettersOnly || topLevel < 2 || topLevel > MAX_LABEL_LENGTH || i - hostStart > MAX_HOST_LENGTH) return -1;
  if (!isIcannTopLevelAt(s, labelStart, i)) return -1;
  if (i === n) return n;
  const c = s.charCodeAt(i);
  return c === 0x2f || c === 0x3f || c === 0x23 ? i + 1 : -1;
}

/** Whether the label starting at `start` starts with `xn--` (any letter case). */
const isPunycodeLabel = (s: string, start: number) =>
  (s.charCodeAt(start) | 0x20) === 0x78 &&
  (s.charCodeAt(start + 1) | 0x20) === 0x6e &&
  s.charCodeAt(start + 2) === 0x2d &&
  s.charCodeAt(start + 3) === 0x2d;

/** Clause 2: does `s` start with `<one or more chars other than "." and ":">://`? */
function hasScheme(s: string): boolean {
  const colon = s.indexOf(':');
  return colon > 0 && !s.slice(0, colon).includes('.') && s.startsWith('//', colon + 1);
}

/** Clause 2: the string with the scheme-less shorthand expanded. Only meaningful for valid input. */
export function normalizeCrawlUrl(input: string): string {
  return hasScheme(input) ? input : `http://${input}`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Clause 5, on a string that starts with `scheme://` (every string does, after clause 2). */
function colonsBeforeHostAreFine(s: string): boolean {
  const start = s.indexOf(':') + 3;
  let end = start;
  while (end < s.length && !'./\\?#['.includes(s[end] as string)) end += 1;
  const colon = s.indexOf(':', start);
  if (colon === -1 || colon >= end) return true;
  if (colon + 1 === end) return false;
  for (let i = colon + 1; i < end; i += 1) if (!isDigit(s[i])) return false;
  return true;
}

const isC0OrSpace = (c: string | undefined) => c !== undefined && c <= ' ';

/**
 * The host as written, before WHATWG decodes it: what follows the scheme, its slashes and any user info, up
 * to the port, path, query or fragment. Mirrors the WHATWG authority rules for `http` and `https`.
 */
function writtenHost(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && isC0OrSpace(s[from])) from += 1;
  while (to > from && isC0OrSpace(s[to - 1])) to -= 1;
  const t = s.slice(from, to).replace(/[\t\n\r]/g, '');
  let start = t.indexOf(':') + 1;
  while (t[start] === '/' || t[start] === '\\') start += 1;
  let end = start;
  while (end < t.length && !'/\\?#'.includes(t[end] as string)) end += 1;
  const authority = t.slice(start, end);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * WHATWG drops one trailing "." from an IPv4 address (also written `%2E` or `。`). Appending a letter to the
 * written host and asking WHATWG again tells: the last label is then that letter alone.
 */
function writtenWithTrailingDot(s: string): boolean {
  const probe = `http://${writtenHost(s)}x`;
  return parseUrl(probe)?.hostname.endsWith('.x') === true;
}

/** Clause 6, on the hostname WHATWG gives. */
function hostIsFine(hostname: string, s: string): boolean {
  if (hostname.startsWith('[')) return true;
  if (IPV4.test(hostname)) return !writtenWithTrailingDot(s);
  const labels = hostname.split('.');
  const last = labels[labels.length - 1];
  return labels.length >= 2 && labels.every((label) => label.length > 0) && last !== undefined && isIcannTopLevel(last);
}

/** Why `input` is not a valid crawl URL, in the service's words; `undefined` when it is one. */
export function crawlUrlProblem(input: unknown): string | undefined {
  if (typeof input !== 'string') return CRAWL_URL_MESSAGES.notString;
  return plainOriginEnd(input) >= 0 ? undefined : clauseProblem(input);
}

/**
 * Whether `input` is a plain address (see `plainOriginEnd`) whose path, query and fragment are visible ASCII
 * characters: WHATWG then keeps its path as written, apart from the rewrites `writtenPath` looks for.
 */
export function isPlainCrawlUrl(input: string): boolean {
  const end = plainOriginEnd(input);
  if (end < 0) return false;
  for (let i = end; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

/** DNS: at most 63 octets a label, 253 a name. */
export const MAX_LABEL_LENGTH = 63;
export const MAX_HOST_LENGTH = 253;

/** What separates the labels of a written host, as WHATWG reads it (the ideographic and full-width dots, `%2E`). */
const LABEL_SEPARATOR = /[.\u3002\uff0e\uff61]|%2e/i;

/**
 * Clause 2b: the host as written is no longer than DNS allows (a label of more than 63 characters, a name of
 * more than 253, can never be resolved; an internationalised label only grows in punycode). Checked on the text
 * before WHATWG reads it: WHATWG punycodes each label, which costs more than linear time in a long label.
 */
function hostTooLong(s: string): boolean {
  const host = writtenHost(s);
  if (host.startsWith('[')) return false;
  return host.length > MAX_HOST_LENGTH || host.split(LABEL_SEPARATOR).some((label) => label.length > MAX_LABEL_LENGTH);
}

/** Clauses 2 to 6 themselves, for any string: what `crawlUrlProblem` gives for an address that is not plain. */
export function clauseProblem(input: string): string | undefined {
  const s = normalizeCrawlUrl(input);
  if (hostTooLong(s)) return CRAWL_URL_MESSAGES.host;
  const url = parseUrl(s);
  if (url === undefined) return CRAWL_URL_MESSAGES.invalid;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return CRAWL_URL_MESSAGES.protocol;
  if (!colonsBeforeHostAreFine(s)) return CRAWL_URL_MESSAGES.invalid;
  if (!hostIsFine(url.hostname, s)) return CRAWL_URL_MESSAGES.host;
  return undefined;
}

/**
 * Whether the interface itself refuses `input`: it says only "string (URI)", so a string that is no URL under
 * any reading (not even with the `http://` shorthand of clause 2) breaks the interface; every other clause is
 * the service's (its schemes, its colon rule, its top-level-domain rule).
 */
export function isUnparseableUrl(input: string): boolean {
  return !isWhatwgUrl(normalizeCrawlUrl(input));
}

/** Whether `input` is a valid crawl or scrape URL. */
export function isCrawlUrl(input: unknown): boolean {
  return crawlUrlProblem(input) === undefined;
}
