/**
 * How much input the document commands read (issue 22, finding 11): past MAX_INPUT_BYTES they stop reading and
 * exit 2 with one line, instead of reading all of it first (1 GiB of stdin once took the command to a 2.1 GB
 * memory peak before the same refusal). The command runs for real, as test/support/cliRuns.ts runs it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, readLimited } from '../scripts/cli/input.js';
import { builtCli } from './support/build.js';
import { ROOT } from './support/runCli.js';

const MiB = 1024 * 1024;

/** A stream that never ends, counting the chunks it was asked for. */
function endless(chunkBytes: number): { readonly stream: Readable; readonly produced: () => number } {
  let produced = 0;
  const stream = new Readable({
    read() {
      produced += 1;
      this.push(Buffer.alloc(chunkBytes, 0x20));
    },
  });
  return { stream, produced: () => produced };
}

describe('readLimited', () => {
  it('reads a stream within the limit whole', async () => {
    const text = '{"url":"https://example.com"}';
    expect((await readLimited(Readable.from([Buffer.from(text.slice(0, 10)), Buffer.from(text.slice(10))]), text.length)).toString()).toBe(
      text,
    );
  });

  it('stops reading a stream that never ends once it is past the limit, and destroys it', async () => {
    const { stream, produced } = endless(1024);
    await expect(readLimited(stream, 64 * 1024)).rejects.toThrow('it holds more than 65536 bytes, the most this command reads');
    expect(stream.destroyed).toBe(true);
    // What was read up to the limit, and what the stream had buffered ahead (its highWaterMark, 16 KiB).
    expect(produced()).toBeLessThanOrEqual(64 + 1 + 16);
  });
});

describe('crawlspec validate', () => {
  it('1 GiB on stdin: exit 2 with one line, having read no more than the limit', async () => {
    const child = spawn(process.execPath, [builtCli(), 'validate', 'v2/CrawlRequest'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // Written a MiB at a time as the pipe takes it, until 1 GiB or until the command stops reading.
    const chunk = Buffer.alloc(MiB, 0x20);
    let written = 0;
    let stopped = false;
    child.stdin.on('error', () => (stopped = true));
    child.stdin.on('close', () => (stopped = true));
    while (!stopped && written < 1024 * MiB) {
      const more = child.stdin.write(chunk, (error) => {
        if (error === null || error === undefined) written += chunk.length;
      });
      if (!more && !stopped)
        await new Promise<void>((resolve) => {
          // Both listeners go once either fires: a listener left per wait would pile up on the pipe.
          const done = (): void => {
            child.stdin.off('drain', done).off('close', done);
            resolve();
          };
          child.stdin.once('drain', done).once('close', done);
        });
    }
    child.stdin.end();
    const code = await closed;
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `crawlspec: cannot read stdin: it holds more than ${MAX_INPUT_BYTES} bytes, the most this command reads; expected a smaller document\n`,
    });
    // It stopped reading: what the pipe took is the limit and what its buffers hold, far from 1 GiB.
    expect(written).toBeLessThan(MAX_INPUT_BYTES + 64 * MiB);
  }, 60_000);
});
