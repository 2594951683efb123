/**
 * `npm run load` (`tsx scripts/load/main.ts [--duration <s>] [--json]`): the reference server under load. It keeps
 * answering correctly, loses nothing, drops slow clients in bounded time, and its memory stays bounded.
 *
 * The server runs in this process on 127.0.0.1, on a port the system picks, with a 64 KiB body limit (so
 * that bodies at the limit stay cheap) and short slow-client timeouts (so that their scenario fits its
 * time). autocannon drives it, one scenario after the other, each for `--duration` seconds (default 3):
 *   1. starts and polls: v1 and v2 crawl and batch scrape starts (valid bodies, a crawl with catastrophic
 *      path patterns among them), each followed by a status poll of the job it started: every start is a
 *      valid 200 start answer, every poll a valid 200 status;
 *   2. body size limits: bodies of exactly the limit (valid → 200, invalid → 400, one of them nothing but
 *      wrong batch entries) and one byte over (→ 413 with the error envelope); then, once each, a body past
 *      what the adapter reads (413, connection closed) and a server with the default 10 MiB limit (at it →
 *      200, one byte over → 413, 10 MiB of wrong batch entries → 400);
 *   3. malformed JSON: → 400 with exactly the BAD_REQUEST_INVALID_JSON body, whatever the token;
 *   4. slow clients: connections that send nothing, send their headers or body a byte at a time, stop
 *      halfway, or idle after a request, while others poll: every one is dropped within its timeout (plus
 *      node's check interval, at most 1 s, and a second of slack), and the others are all answered, none
 *      waiting as long as the headers timeout;
 *   5. nothing lost: every job any start answered for is found (200), ends `completed`, and following `next`
 *      (2 pages at a time) gives as many distinct pages as it reported (`completed` = `total`), at least as
 *      many as any poll saw, and as many as the same request gave on the idle server before the load;
 *   6. expiry: on a server whose jobs live 1 s, jobs started under load (some with idempotency keys) are all
 *      dropped from memory (`stats()`: jobs, expired ids, keys back to 0) within 2 × TTL plus two sweeps,
 *      without anyone touching them.
 * For each scenario it prints requests/s, latency p50/p99/max, answers by status and connection errors and
 * timeouts, then one PASS/FAIL line per check (`--json`: one JSON document instead); the exit status is 1 if
 * a check fails. Load generator and server share one thread, so the figures are what one core does for
 * both: compare runs on one machine, not with other servers.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { runScenarios, scenarioHeader } from './scenarios/scenarios.js';
import { printText } from './shared.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } } });
  const duration = Number(values.duration);
  if (!(duration > 0 && duration <= 600)) throw new Error(`--duration must be a number of seconds in (0, 600], not ${values.duration}`);

  const scenarios = await runScenarios(duration);

  const header = {
    machine: `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`,
    ...scenarioHeader(duration),
  };
  const passed = scenarios.every((s) => s.checks.every((c) => c.pass));
  if (values.json) console.log(JSON.stringify({ ...header, passed, scenarios }, null, 2));
  else {
    printText(header, scenarios);
    console.log(
      `\n${passed ? 'PASS' : 'FAIL'}: ${scenarios.flatMap((s) => s.checks).filter((c) => c.pass).length} of ${scenarios.flatMap((s) => s.checks).length} checks`,
    );
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
