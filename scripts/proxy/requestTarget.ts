/**
 * Where the validating proxy forwards a request (issue 41, finding 1): to the target's origin, under its path
 * prefix, at the request's path and query, and nowhere else. The request target is never resolved as a URL
 * reference against the target: `//host/x` would be read as another host's address (a scheme-relative URL),
 * `/\host/x` too (URL parsers read `\` as `/`), and `..` segments would be resolved away, leaving the prefix.
 * So a request target that is not a plain path (RFC 9112 §3.2.1, origin form) is refused with what is wrong:
 *
 *   - not starting with `/`: the absolute form (`http://host/x`), the authority form, `*`;
 *   - starting with `//` or `/\`: refused rather than normalised. A client whose base address ends in `/` sends
 *     `//v2/crawl`; the proxy says so (drop the trailing slash) instead of guessing which of the two it meant;
 *   - a backslash anywhere in the path (not a character of a path, RFC 3986 §3.3);
 *   - a `.` or `..` segment, also percent-encoded (`%2e`), which a URL parser resolves (WHATWG URL, "single-dot"
 *     and "double-dot" segments).
 * What is left is joined to the origin and prefix as text: it starts with one `/` and cannot name an authority.
 */

/** A path segment that URL parsers resolve away: `.`, `..`, any of their dots written `%2e`. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** What a request target is refused for, or the address it is forwarded to. */
export type Forwarding = { readonly url: URL } | { readonly refused: string };

/**
 * The address `requestTarget` (as the request line gave it) is forwarded to on `origin` under `prefix` (no
 * trailing slash; '' for none), or why it is refused, in a sentence for the client.
 */
export function forwardingOf(origin: string, prefix: string, requestTarget: string): Forwarding {
  const said = `the request target ${JSON.stringify(requestTarget.slice(0, 200))}`;
  const expected = 'expected a path on the target, such as /v2/crawl';
  const refuse = (what: string): Forwarding => ({ refused: `crawlspec proxy: ${said} ${what}; ${expected}` });
  if (!requestTarget.startsWith('/'))
    return refuse('is not a path (a full address, or an authority): the proxy forwards only to its target');
  const path = requestTarget.split(/[?#]/, 1)[0]!;
  if (path.startsWith('//') || path.startsWith('/\\'))
    return refuse(
      'starts with // or /\\, which names another host (a client whose base address ends in / sends //v2/crawl: drop the trailing slash)',
    );
  if (path.includes('\\')) return refuse('holds a backslash, which is no character of a path (URL parsers read it as /)');
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment)))
    return refuse("holds a . or .. segment, which would be resolved away (and could leave the target's path prefix)");
  return { url: new URL(`${origin}${prefix}${requestTarget}`) };
}
