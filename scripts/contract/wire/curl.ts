/**
 * A sent request as a `curl` command line a person can paste into a shell, with the token redacted.
 */
export interface SentRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  /** Header names as sent; the `Authorization` value is the real one (redacted when shown). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as sent. */
  readonly body?: string;
}

export const REDACTED_AUTHORIZATION = 'Bearer ***';

/** `it's` → `'it'\''s'`: one POSIX-shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(request: SentRequest): string {
  const parts = ['curl', '-sS'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = name.toLowerCase() === 'authorization' ? REDACTED_AUTHORIZATION : value;
    parts.push('-H', shellQuote(`${name}: ${shown}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  return parts.join(' ');
}
