/**
 * What the command's subcommands share: the errors that end a command with exit status 2 (a usage error,
 * input that could not be read), and the checking of options every command does up front, before it starts
 * anything, so that a wrong option is one line saying what is wrong and what is expected.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { access, constants, open, stat, unlink } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { quote } from './terminal.js';

/**
 * A usage error: the command was called wrongly. Exit status 2, the message on one line, followed by a
 * pointer in parentheses: `pointer` when given, else the usage of `command` (e.g. `contract`, `site serve`;
 * '' for the whole command), else of the subcommand that was running.
 */
export class UsageError extends Error {
  command: string | undefined;
  pointer: string | undefined;
  constructor(message: string, command?: string, pointer?: string) {
    super(message);
    this.command = command;
    this.pointer = pointer;
  }
}
/** Input that could not be read, or a server that could not be started where it was asked to. Exit status 2. */
export class InputError extends Error {}

/**
 * `--token T` or `--no-auth` (not both); neither gives a fresh random token. `source` names where the token
 * came from, for the message when it is unusable (`--token`, or `CRAWLSPEC_TOKEN`); `role`, what the token is for.
 */
export function authOption(
  values: { token?: string | undefined; 'no-auth'?: boolean | undefined },
  source = '--token',
  role?: string,
): { token: string } | 'none' {
  if (values['no-auth'] && values.token !== undefined) throw new UsageError('--token and --no-auth exclude each other');
  if (values['no-auth']) return 'none';
  if (values.token === undefined) return { token: `fc-${randomBytes(16).toString('hex')}` };
  return { token: token(values.token, source, role) };
}

/**
 * A bearer token as the command line or the environment gives it: not empty (an unset CI secret is often an
 * empty variable, and would be sent as `Bearer `), and visible ASCII only (RFC 6750's b64token is letters,
 * digits and `-._~+/=`; a space, a control character or a character beyond ASCII cannot go in the header).
 */
export function token(value: string, source: string, role = 'the API token the target expects'): string {
  if (value === '') throw new UsageError(`${source} is empty; expected ${role} (or --no-auth for no authentication)`);
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new UsageError(
      `${source} holds a space, a control character or a character beyond ASCII; expected a bearer token (letters, digits and -._~+/=)`,
    );
  return value;
}

/**
 * The secret webhook deliveries are signed with (`--webhook-secret`, or `CRAWLSPEC_WEBHOOK_SECRET` named as
 * `source`): not empty (an unset CI secret is often an empty variable) and without control characters.
 */
export function webhookSecret(value: string, source: string): string {
  if (value === '')
    throw new UsageError(`${source} is empty; expected the secret webhook deliveries are signed with (X-Firecrawl-Signature)`);
  if (/[\x00-\x1f\x7f]/.test(value))
    throw new UsageError(`${source} holds a control character; expected the secret webhook deliveries are signed with`);
  return value;
}

/** A whole number within [min, max], or a usage error naming the option and the range. */
export function integer(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const number = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) throw new UsageError(`${name} takes a whole number from ${min} to ${max}, not ${quote(value)}`);
  return number;
}

/** A port number: 0 (any free port) to 65535. */
export const port = (value: string | undefined, name = '--port'): number => integer(value, name, 0, 0, 65535);

/** The port an address spells out, when it has one (`:8080` after the host), as digits. */
const spelledPort = (value: string): string | undefined => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(value)?.[1];

/**
 * `value` as an http or https address (a URL object), or a usage error naming the option. An address is
 * connected to or published: port 0 (which a client would turn into the scheme's port) and a port past 65535
 * are refused, saying so.
 */
export function httpAddress(value: string, name: string, example = 'http://127.0.0.1:3002'): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // said below
  }
  const port = spelledPort(value);
  if (port !== undefined && (Number(port) === 0 || Number(port) > 65535))
    throw new UsageError(`${name} ${quote(value)} has the port ${port}; expected a port from 1 to 65535, e.g. ${example}`);
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(`${name} takes an http or https address, e.g. ${example}, not ${quote(value)}`);
  return url;
}

/**
 * The base address of a service (the operations' paths follow it: `/v1/crawl`, `/v2/batch/scrape`): an http or
 * https address without a query or fragment (the paths would land in them), without a user name or password,
 * and not ending in a version segment (`/v1`, `/v2`: the paths carry theirs). A usage error naming the option
 * otherwise.
 */
export function baseAddress(value: string, name: string, example = 'http://127.0.0.1:3002'): URL {
  // A password in an address is printed with it, and written wherever the address goes (a report, a page): refused
  // first, in a message that does not repeat it.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value))
    throw new UsageError(`${name} holds a user name or password (before the @); expected the address alone, e.g. ${example}`);
  const url = httpAddress(value, name, example);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#'))
    throw new UsageError(`${name} takes an address without a query or fragment, e.g. ${example}, not ${quote(value)}`);
  const version = /\/(v[12])\/*$/.exec(url.pathname)?.[1];
  if (version !== undefined)
    throw new UsageError(
      `${name} ${quote(value)} ends with the version segment /${version}; expected the base address without it (the paths add /v1/... and /v2/...), e.g. ${example}`,
    );
  return url;
}

/**
 * A DNS host name (letters, digits and hyphens in dot-separated labels, the last not all digits), or a usage error
 * naming the option. An IP address is no name: `sub.127.0.0.1` is no address, and a URL reads a name ending in
 * digits as an IPv4 address.
 */
export function hostName(value: string, name: string): string {
  const labels = value.split('.');
  const label = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
  if (isIP(value) !== 0 || /^\d+$/.test(labels.at(-1) ?? ''))
    throw new UsageError(`${name} takes a host name (e.g. crawlspec.example.com), not an IP address: ${quote(value)}`);
  if (value.length > 253 || labels.some((l) => !label.test(l)))
    throw new UsageError(`${name} takes a host name (e.g. crawlspec.example.com), not ${quote(value)}`);
  return value;
}

/**
 * A host to listen on: an IP address, or a name that resolves here. Looked up before anything is started,
 * so that a name that does not resolve is a usage error rather than a failure of the server.
 */
export async function listenHost(value: string, name = '--host'): Promise<string> {
  if (value === '') throw new UsageError(`${name} is empty; expected an address of this machine, e.g. 127.0.0.1`);
  try {
    await lookup(value);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'no address';
    throw new UsageError(
      `${name} ${quote(value)} does not resolve (${code}); expected an address of this machine, e.g. 127.0.0.1 or localhost`,
    );
  }
  return value;
}

/**
 * The one-line message for a server that could not listen (`listen` rejected): the address in use, not an
 * address of this machine, a port that needs privileges. Anything else is not a usage problem: rethrown.
 */
export function listenError(error: unknown, host: string, portNumber: number): never {
  const code = (error as { code?: string }).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${portNumber}`;
  if (code === 'EADDRINUSE')
    throw new InputError(
      `cannot listen on ${where}: the port is in use (EADDRINUSE); expected a free --port, or --port 0 for any free one`,
    );
  if (code === 'EADDRNOTAVAIL')
    throw new InputError(
      `cannot listen on ${where}: ${quote(host)} is not an address of this machine (EADDRNOTAVAIL); expected one, e.g. 127.0.0.1`,
    );
  if (code === 'EACCES' || code === 'EPERM')
    throw new InputError(
      `cannot listen on ${where}: not permitted (${code}; ports below 1024 need privileges); expected --port 1024 or above, or 0`,
    );
  throw error;
}

/**
 * A file the command writes (`--report FILE`, `--record FILE`, `-o FILE`; `what` it holds), checked before the
 * command starts its work, so that a long run is not lost.
 */
export async function outputFile(file: string, option: string, what: string, example: string): Promise<string> {
  if (file === '') throw new UsageError(`${option} is empty; expected a file to write ${what} to, e.g. ${example}`);
  const path = resolve(file);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`${option} ${quote(file)} is a directory; expected a file to write ${what} to`);
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => undefined);
  if (parent === undefined)
    throw new UsageError(
      `${option} ${quote(file)}: the directory ${quote(folder)} does not exist; expected a file in an existing directory`,
    );
  if (!parent.isDirectory())
    throw new UsageError(`${option} ${quote(file)}: ${quote(folder)} is a file, not a directory; expected a file in a directory`);
  await access(existing ? path : folder, constants.W_OK).catch(() => {
    throw new UsageError(`${option} ${quote(file)} cannot be written (no permission); expected a file you may write`);
  });
  // Opened for appending, as the write will open it (and removed again if this made it): some places let a process
  // through every check above and refuse the file itself (/proc, /sys).
  const opened = await open(path, 'a').catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(
      `${option} ${quote(file)} cannot be written (${typeof code === 'string' ? code : String(error)}); expected a file you may write`,
    );
  });
  await opened.close();
  if (existing === undefined) await unlink(path).catch(() => undefined);
  return file;
}
