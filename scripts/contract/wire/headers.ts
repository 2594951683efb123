/**
 * The headers a run sends on every request besides its own (`--header 'Name: value'`, e.g. the key an API
 * gateway in front of the target asks for). Each is checked before anything is sent: a name is an HTTP token
 * (RFC 9110 §5.1), given once; a value is visible ASCII, with spaces or tabs only inside it (RFC 9110 §5.5:
 * whitespace at the ends is not part of a field value, and a character past ASCII reads differently from one
 * server to the next); and no name is one the kit sets itself: `Authorization` (the token: --token),
 * `Content-Type` (the kit's JSON), `Host` (the target's), nor the framing headers that would change how a
 * body is read or the connection is used (`Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive`, `Upgrade`,
 * `Expect`). Their values are secrets: cleaned from everything the kit writes, as the token is (redact.ts).
 */

/** A header name (RFC 9110 §5.1: a token). */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: visible ASCII, spaces and tabs only between visible characters. */
const VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;

/** The names a header of the run may not have, in lower case, each with the reason. */
const RESERVED: Readonly<Record<string, string>> = {
  authorization: 'the kit sends the token there (--token)',
  'content-type': 'the kit sends its JSON bodies as application/json',
  host: "the kit sends the target's host",
  'content-length': "the kit sends the body's length",
  'transfer-encoding': 'the kit frames the body itself',
  connection: 'the kit keeps its connections open and reuses them',
  'keep-alive': 'the kit keeps its connections open and reuses them',
  upgrade: 'the kit speaks HTTP/1.1 only',
  expect: 'the kit sends each body at once, without waiting for a 100 Continue',
};

/** What is wrong with the header `name: value`, or undefined when it can be sent on every request. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!NAME.test(name)) return `the name ${JSON.stringify(name)} is not an HTTP header name; expected letters, digits and !#$%&'*+-.^_\`|~`;
  const reserved = RESERVED[name.toLowerCase()];
  if (reserved !== undefined) return `${name} cannot be set: ${reserved}; expected a header of another name`;
  if (!VALUE.test(value))
    return `the value of ${name} is empty or holds a control character or a character beyond ASCII; expected visible ASCII characters`;
  return undefined;
}

/**
 * `Name: value` as given on the command line: the name before the first colon, the value after it, the spaces
 * around each trimmed. Undefined when there is no colon, or nothing before or after it.
 */
export function parseHeader(text: string): { name: string; value: string } | undefined {
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  return name === '' || value === '' ? undefined : { name, value };
}

/** `headers` checked (a RangeError saying which one is wrong and why), as one record. */
export function checkedHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    // The value is a secret: never in a message.
    if (problem !== undefined) throw new RangeError(`headers: ${problem}`);
    if (seen.has(name.toLowerCase())) throw new RangeError(`headers: ${name} is given twice; expected each name once`);
    seen.add(name.toLowerCase());
  }
  return { ...headers };
}
