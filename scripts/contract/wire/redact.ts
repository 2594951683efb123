/**
 * The run's secrets never leave the kit in anything it writes: the token, and the value of every `--header`
 * (a gateway's key). A target may echo one (in an error message, a job's url, a page record, an HTML error
 * page), so every string of the report is cleaned of each before it is printed or saved (text, JSON, JUnit,
 * curl lines), and a failure's body before it is cut to length (so that a cut never leaves half a secret).
 * Each secret is cleaned as the token is (below, "the token" is any of them), the longest first. The
 * spellings cleaned, in any letter case (`%2f` and `%2F`, a token echoed upper-cased):
 *
 *   - as sent; JSON-escaped (also with `\/`, and HTML-safe as Go writes it: `\u003c`), non-ASCII as `\uXXXX`;
 *   - percent-encoded (as a path segment and as a form value, `+` for a space), and percent-encoded twice;
 *   - HTML-escaped (`&amp;`, `&lt;`, `&quot;`, `&#39;`);
 *   - base64 and base64url, wherever the token stands in the encoded text: the characters that only the
 *     token's bytes determine, at each of the three alignments (so `Basic base64(user:token)` is caught).
 *
 * A token of at least MIN_SUBSTRING characters is cleaned wherever it stands; a shorter one (a test token such
 * as `t`) only where it stands as a word of its own, so that it does not eat into every other word, and not
 * in base64 (whose few characters would stand in any encoded text). Other spellings (every character `\u`-escaped, encodings nested otherwise) are
 * not looked for.
 *
 * The run's own addresses (the target's and the site's, which the user gave and which are no secret) are left
 * whole: a short header value such as `1` made every `127.0.0.1:1` in a report `127.0.0.***:***`. A secret's
 * spelling is kept only where it lies wholly within such an address.
 */
export const REDACTED = '***';
export const MIN_SUBSTRING = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Percent-encoding, or undefined for a token with a lone surrogate (which has none). */
function percent(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The spellings of JSON and HTML a target might echo the token in. */
function textSpellings(token: string): string[] {
  const json = JSON.stringify(token).slice(1, -1);
  const encoded = percent(token);
  return [
    token,
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[<>&]/g, unicodeEscape),
    json.replace(/[^\x20-\x7e]/g, unicodeEscape),
    token.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!),
    ...(encoded === undefined ? [] : [encoded, encoded.replace(/%20/g, '+'), percent(encoded)!]),
  ];
}

/**
 * The base64 and base64url characters that the token's bytes alone determine, for the token standing at
 * byte 0, 1 or 2 of a 3-byte group of the encoded text.
 */
function base64Spellings(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8');
  const forms: string[] = [];
  for (let at = 0; at < 3; at += 1) {
    const padded = Buffer.concat([Buffer.alloc(at), bytes, Buffer.alloc(2)]);
    const first = Math.ceil((8 * at) / 6);
    const end = Math.floor((8 * (at + bytes.length)) / 6);
    for (const alphabet of ['base64', 'base64url'] as const) forms.push(padded.toString(alphabet).slice(first, end));
  }
  return forms;
}

/** The source of a matcher of every spelling of `token`, longest first; null when there is nothing to clean. */
function matcherSource(token: string): string | null {
  const long = token.length >= MIN_SUBSTRING;
  const forms = [...new Set([...textSpellings(token), ...(long ? base64Spellings(token) : [])])].filter((f) => f.length > 0);
  if (forms.length === 0) return null;
  const alternatives = forms
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  // A short token only as a word of its own: not next to a letter, digit, `_` or `-`.
  return long ? `(?:${alternatives})` : `(?<![\\w-])(?:${alternatives})(?![\\w-])`;
}

/** What a report is cleaned of (`secrets`), and what is left whole in it (`keep`: addresses that are no secret). */
export interface Redaction {
  readonly secrets: readonly (string | undefined)[];
  readonly keep?: readonly string[];
}

/** The secrets of a run: its token, the values of its `--header`s and the secret its webhook deliveries are signed with. */
const runSecrets = (options: {
  readonly token: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  readonly webhookSecret?: string | undefined;
}): (string | undefined)[] => [options.token, ...Object.values(options.headers ?? {}), options.webhookSecret];

/** The spellings of an address a report shows: as given, its origin, host (with the port) and host name. */
function addressForms(address: string | undefined): string[] {
  if (address === undefined) return [];
  try {
    const url = new URL(address);
    return [address, url.href, url.origin, url.host, url.hostname];
  } catch {
    return [address];
  }
}

/** A run's redaction: its secrets, and its target's and site's addresses left whole. */
export const runRedaction = (options: {
  readonly token: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  readonly webhookSecret?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly siteUrl?: string | undefined;
}): Redaction => ({ secrets: runSecrets(options), keep: [...addressForms(options.baseUrl), ...addressForms(options.siteUrl)] });

/** `text` cleaned of every secret: a function, so that one set of matchers serves a whole report. */
export function redactor({ secrets, keep = [] }: Redaction): (text: string) => string {
  const given = [...new Set(secrets.filter((s): s is string => s !== undefined && s !== ''))];
  // The longest first: a secret that holds a shorter one is cleaned whole.
  const sources = given
    .sort((a, b) => b.length - a.length)
    .map(matcherSource)
    .filter((p): p is string => p !== null);
  if (sources.length === 0) return (text) => text;
  const pattern = new RegExp(sources.join('|'), 'giu');
  const kept = [...new Set(keep.filter((k) => k !== ''))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return (text) => text.replace(pattern, REDACTED);
  const keptPattern = new RegExp(kept.map(escapeRegExp).join('|'), 'giu');
  return (text) => {
    const spans = [...text.matchAll(keptPattern)].map((m) => [m.index, m.index + m[0].length] as const);
    if (spans.length === 0) return text.replace(pattern, REDACTED);
    // Both come in the order of the text, and the addresses do not overlap: one pass over each, so that a target
    // echoing an address and a secret many times costs linear work, not their product.
    let next = 0;
    return text.replace(pattern, (match: string, ...rest: unknown[]) => {
      const at = rest.at(-2) as number;
      while (next < spans.length && spans[next]![1] <= at) next += 1;
      const span = spans[next];
      return span !== undefined && span[0] <= at && at + match.length <= span[1] ? match : REDACTED;
    });
  };
}

/** `value` with every spelling of each secret in its strings (and keys) replaced by `***` (arrays and plain objects copied). */
export function redact<T>(value: T, redaction: Redaction): T {
  if (redaction.secrets.every((s) => s === undefined || s === '')) return value;
  const clean = redactor(redaction);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return clean(node);
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([k, v]) => [clean(k), walk(v)]));
    return node;
  };
  return walk(value) as T;
}
