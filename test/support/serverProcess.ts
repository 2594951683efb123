/**
 * The reference server in a child process (`crawlspec serve`, the test run's build of the sources, on 127.0.0.1 and a port the
 * system picks), for tests that must watch it from outside: if something stalls the server's thread, the
 * test's own requests and timers still run, so a stall fails the test in bounded time instead of hanging
 * it. `stop()` ends the child (SIGKILL if it does not stop on SIGINT within a second).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtCli } from './build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  /** e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  stop(): Promise<void>;
}

/** `args`: more options of `crawlspec serve` (e.g. `--allow-host 127.0.0.1` for a server the kit's test site is crawled by). */
export async function startServerProcess(token: string, timeoutMs = 60_000, args: readonly string[] = []): Promise<ServerProcess> {
  const { CRAWLSPEC_TOKEN: _token, ...env } = process.env;
  const child = spawn(process.execPath, [builtCli(), 'serve', '--port', '0', '--token', token, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, NO_COLOR: '1' },
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const kill = setTimeout(() => child.kill('SIGKILL'), 1000);
    await ended;
    clearTimeout(kill);
  };
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${timeoutMs} ms: ${output}`)), timeoutMs);
      const read = (chunk: string) => {
        output += chunk;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (found === null) return;
        clearTimeout(timer);
        resolve(found[1]!);
      };
      child.stdout.setEncoding('utf8').on('data', read);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.once('close', () => {
        clearTimeout(timer);
        reject(new Error(`the server ended before listening: ${output}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
