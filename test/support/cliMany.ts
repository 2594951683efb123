/**
 * Runs the `crawlspec` command once per argument list, all in this one process: the entry module (the test
 * run's build of scripts/cli.ts, test/support/build.ts) is imported afresh for each, with `process.argv` set to it, and what it wrote to stdout and
 * stderr and the exit status it set are collected. Its input on stdin: a JSON array of argument lists; its output
 * on stdout: a JSON array of { code, stdout, stderr }, in the same order.
 *
 * For the usage errors of test/cliUsageErrors.test.ts: each is one line and exit 2 before the command starts anything, so one
 * process can say what each of some sixty argument lists gets, where a spawn each cost half a second to a second of
 * CPU (tsx loading the sources). The streams and the exit status of a real process are tested by the spawns there.
 */
import { text } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { builtCli } from './build.js';

const CLI = pathToFileURL(builtCli()).href;
const lists = JSON.parse(await text(process.stdin)) as string[][];
const results: { code: number | undefined; stdout: string; stderr: string }[] = [];
const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
// Each import adds the entry module's process and stream listeners.
process.setMaxListeners(0);
process.stdout.setMaxListeners(0);
process.stderr.setMaxListeners(0);
for (const [i, args] of lists.entries()) {
  const seen = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const)
    process[name].write = ((chunk: string | Uint8Array) => {
      seen[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write;
  process.argv = [process.argv[0]!, builtCli(), ...args];
  process.exitCode = undefined;
  try {
    // A query makes it a module of its own: the entry runs again (the modules it imports are shared).
    await import(`${CLI}?run=${i}`);
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
  const code = process.exitCode;
  results.push({ code: typeof code === 'number' ? code : undefined, ...seen });
}
process.exitCode = 0;
process.stdout.write(`${JSON.stringify(results)}\n`);
