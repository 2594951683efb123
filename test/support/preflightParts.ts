/**
 * What the preflight test files (test/preflight*.test.ts) share: the token, the time a command may take, and the
 * last line a command printed.
 */
import { type CliRun } from './runCli.js';

export const TOKEN = 'preflight-test-token';
export const CLI_TIMEOUT_MS = 120_000;

export const lastLine = (run: CliRun) => run.stdout.trimEnd().split('\n').pop();
