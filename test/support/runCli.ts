/**
 * Runs the `crawlspec` command for real (`node <build>/command/cli.js ...`, the command bundled once for the
 * test run: test/support/build.ts) as a child process, with its whole standard input given and nothing
 * inherited from the terminal, and collects what it wrote.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtCli } from './build.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `crawlspec ...args` with `stdin` as its standard input; killed after `timeoutMs` (a hang shows as a signal).
 * `env` is added to the environment (which never passes on a CRAWLSPEC_TOKEN of the outside).
 */
export function runCli(args: readonly string[], stdin: string, timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runNode([builtCli(), ...args], stdin, timeoutMs, env);
}

/** The TypeScript module `script` run the same way, through tsx (test/support/cliMany.ts runs the command many times in one process). */
export function runScript(
  script: string,
  args: readonly string[],
  stdin: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return runNode(['--import', 'tsx', script, ...args], stdin, timeoutMs, env);
}

function runNode(nodeArgs: readonly string[], stdin: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<CliRun> {
  const { CRAWLSPEC_TOKEN: _token, ...outside } = process.env;
  return new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      env: { ...outside, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
    // The command may exit without reading all of its input: ignore the resulting EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}
