/**
 * Stoplight Prism (`prism mock`, the devDependency @stoplight/prism-cli) on an OpenAPI document, in a child process on
 * 127.0.0.1 and a port the system picks, for tests that ask what a user's Prism makes of the shipped documents.
 * Prism validates every request against the operation it matches and, when the request breaks the document, lists
 * the problems in its `sl-violations` answer header (whatever status it then answers with). `stop()` ends the child
 * (SIGKILL if it does not stop on SIGINT within a second).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const PRISM_BIN = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

export interface Prism {
  /** e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  stop(): Promise<void>;
}

/** One problem Prism found in a request (its `sl-violations` entry). */
export interface Violation {
  readonly location: readonly string[];
  readonly code: string;
  readonly message: string;
}

export async function startPrism(documentFile: string, timeoutMs = 60_000): Promise<Prism> {
  const child = spawn(process.execPath, [PRISM_BIN, 'mock', '--host', '127.0.0.1', '--port', '0', documentFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const kill = setTimeout(() => child.kill('SIGKILL'), 1000);
    await ended;
    clearTimeout(kill);
  };
  // Prism logs a line per request: what comes after the listening line is read and dropped, so the pipe never fills.
  let output = '';
  let listening = false;
  const keep = (chunk: string) => {
    if (!listening && output.length < 100_000) output += chunk;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Prism printed no "listening on" line within ${timeoutMs} ms: ${output}`)), timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        keep(chunk);
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (listening || found === null) return;
        listening = true;
        clearTimeout(timer);
        resolve(found[1]!);
      });
      child.stderr.setEncoding('utf8').on('data', keep);
      child.once('close', () => {
        clearTimeout(timer);
        reject(new Error(`Prism ended before listening: ${output}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What Prism's request validation says of `body` (and `headers`) sent to `method path`: the violations, none when it accepts it. */
export async function prismViolations(
  prism: Prism,
  method: string,
  path: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Violation[]> {
  const response = await fetch(`${prism.url}${path}`, {
    method,
    headers: { authorization: 'Bearer fc-test', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  const header = response.headers.get('sl-violations');
  return header === null ? [] : (JSON.parse(header) as Violation[]);
}
