/**
 * `npm run load` (`tsx scripts/load/main.ts [--stage all|scenarios|attacks] [--attack <ids>] [--duration <s>]
 * [--json]`): the reference server under load, then under attack. It keeps answering correctly, loses
 * nothing, drops slow clients in bounded time, its memory stays bounded, and no request its limits admit
 * takes it down or stalls everyone else. Two stages, both by default (`--stage` runs one):
 *
 * The scenario stage (`scenarios/`). The server runs in this process on 127.0.0.1, on a port the system picks,
 * with a 64 KiB body limit (so that bodies at the limit stay cheap) and short slow-client timeouts (so that
 * their scenario fits its time). autocannon drives it, one scenario after the other, each for `--duration`
 * seconds (default 3):
 *   1. starts and polls: v1 and v2 crawl and batch scrape starts (valid bodies, a crawl with catastrophic
 *      path patterns among them), each followed by a status poll of the job it started: every start is a
 *      valid 200 start answer, every poll a valid 200 status;
 *   2. body size limits: bodies of exactly the limit (valid → 200, invalid → 400, one of them nothing but
 *      wrong batch entries) and one byte over (→ 413 with the error envelope); then, once each, a body past
 *      what the adapter reads (413, connection closed) and a server with the default 10 MiB limit (at it →
 *      200, one byte over → 413, 10 MiB of wrong batch entries → 400);
 *   3. malformed JSON: → 400 with exactly the BAD_REQUEST_INVALID_JSON body with the token, 401 without it;
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
 * timeouts, then one PASS/FAIL line per check. Load generator and server share one thread, so the figures are
 * what one core does for both: compare runs on one machine, not with other servers.
 *
 * The attack stage (`attacks/`) replays each finding of issue 13 about the server, one attack at a time
 * (`--attack 1,4a` picks some), each against a fresh `crawlspec serve` with the command's defaults (10 MiB
 * bodies, pages every 100 ms, webhooks to loopback) in a child process, so that its RSS (read from /proc:
 * Linux) and CPU time are its own, never the load generator's:
 *   1. one 1.1 MB v2 batch: 5000 pages at maxConcurrency 5000, a webhook (no receiver) with 1 MB of metadata;
 *   2. five 9.7 MiB v2 batches of ~850,000 short addresses, maxConcurrency as high, one after another;
 *   3. path patterns of named groups and backreferences, 1.6 MB (one pattern; 2000-character ones): 400 fast;
 *   4a. a 1 MB crawl (a long address, 50 scrape actions) whose status 12 clients ask for and never read;
 *   4b. a crawl of a 2.1 MB address: its status reads are never a 5xx;
 *   5. webhook receivers answering 301/302/303/307/308 to another loopback listener: it receives nothing;
 *   6. a 480 KB batch of addresses with 10,000-character internationalised labels: 400 fast;
 *   7. GET /v1 and /v2 crawl/active while crawls whose JSON schema nests 6000 levels deep run: 200;
 *   8. a webhook receiver that never answers, its job cancelled a third of the way: nothing but at most one
 *      completed event is delivered after the cancel, and the queued events do not pile up in memory;
 *   9. two unauthenticated 20 MiB deeply nested bodies: 401 (or 413) fast, for little CPU;
 * and the findings of issue 22 (`attacks/afterPage.ts` and `attacks/surface.ts`, each `22-N`; the server started
 * with `--allow-host 127.0.0.1` unless the attack says otherwise, so that its jobs crawl the attacks' sites,
 * `attacks/sites.ts`):
 *   22-1. markdown of pages at the 5 MiB limit that node-html-markdown took quadratic time on (digits, a long
 *      word in a list item, line breaks in a table cell, a text page of ampersands): whole, without a stall;
 *   22-2. a crawl of a site whose robots.txt is costly to match: links left out (an error says so), no stall;
 *   22-3. crawls of link farms (1,000 distinct links a page, of 5,000 and 1,000 characters): memory bounded,
 *      the crawl says it stopped taking new addresses;
 *   22-4. 20 crawls across 16 origins of 500 KB robots.txt each: what ended crawls hold is given back;
 *   22-5. a crawl of 300 pages of 1,000 addresses robots.txt disallows: its errors answer stays small, valid;
 *   22-6. another caller's 10-page batch beside six crawls of a site that never answers: done within 5 s;
 *   22-7. `serve --no-auth` driven as a web page would: another Host (421), a text/plain start (415), a crawl of
 *      another loopback port (an error of its job; the service there gets no request);
 *   22-9. five v1 crawls at once of three 900-patternProperties schemas each, five at the validators' bounds,
 *      and 300 $refs to a 300-property definition: each answered within 1 s;
 *   22-13. webhook headers naming Host, Upgrade, Transfer-Encoding, ...: none reaches the receiver.
 * While an attack runs, a small job's status (the unrelated request) is asked for every 100 ms and the
 * server's RSS read every 50 ms (it is killed past a 2 GiB ceiling, so no attack takes the machine down).
 * Each attack then checks its peak RSS against its bound, that every unrelated request was answered 200
 * within its bound, its own checks, that it ended within its deadline, and that the server still answers
 * (alive afterwards). Every bound is a named constant in `attacks/bounds.ts`, with why that figure; every
 * request, receiver and socket has a time limit and is closed, and the server is stopped. It prints per
 * attack the peak and idle RSS, server CPU, duration, the unrelated request's latency and answers, the
 * attack's answers by status, then one PASS/FAIL line per check. docs/hardening.md lists the figures.
 *
 * `--json` prints one JSON document (`scenarios`, `attacks`) instead of the text; the exit status is 1 if a
 * check of either stage fails.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { ATTACKS } from './attacks/attacks.js';
import { PROBE_INTERVAL_MS, RSS_CEILING_MIB } from './attacks/bounds.js';
import { printAttacks, runAttack, type AttackReport } from './attacks/harness.js';
import { runScenarios, scenarioHeader } from './scenarios/scenarios.js';
import { printText, type Check, type ScenarioReport } from './shared.js';

const STAGES = ['all', 'scenarios', 'attacks'] as const;

/** A flag given wrongly: one line, exit status 2. */
class UsageError extends Error {}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
      stage: { type: 'string', default: 'all' },
      attack: { type: 'string' },
    },
  });
  const duration = Number(values.duration);
  if (!(duration > 0 && duration <= 600))
    throw new UsageError(`--duration must be a number of seconds in (0, 600], not ${values.duration}`);
  const stage = values.stage as (typeof STAGES)[number];
  if (!STAGES.includes(stage)) throw new UsageError(`--stage must be one of ${STAGES.join(', ')}, not ${values.stage}`);
  const wanted = values.attack?.split(',').map((id) => id.trim());
  const unknown = wanted?.filter((id) => !ATTACKS.some((a) => a.id === id)) ?? [];
  if (unknown.length > 0)
    throw new UsageError(`--attack takes ids among ${ATTACKS.map((a) => a.id).join(', ')}, not ${unknown.join(', ')}`);
  const attacks = ATTACKS.filter((a) => wanted === undefined || wanted.includes(a.id));

  const scenarios: ScenarioReport[] = stage === 'attacks' ? [] : await runScenarios(duration);
  const attackReports: AttackReport[] = [];
  if (stage !== 'scenarios') {
    for (const attack of attacks) {
      if (!values.json) console.error(`attack ${attack.id}: ${attack.title}…`);
      attackReports.push(await runAttack(attack));
    }
  }

  const header = {
    machine: `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`,
    stage,
    ...(stage === 'attacks' ? {} : scenarioHeader(duration)),
    ...(stage === 'scenarios'
      ? {}
      : {
          'attack stage': `${attacks.map((a) => a.id).join(', ')}, each on a fresh \`crawlspec serve\` in a child process (its defaults, and --allow-host 127.0.0.1 unless an attack says otherwise); RSS read from /proc, the server killed past ${RSS_CEILING_MIB} MiB; an unrelated request (a small job's status) every ${PROBE_INTERVAL_MS} ms`,
        }),
  };
  const checks: Check[] = [...scenarios.flatMap((s) => s.checks), ...attackReports.flatMap((a) => a.checks)];
  const passed = checks.every((c) => c.pass);
  if (values.json) console.log(JSON.stringify({ ...header, passed, scenarios, attacks: attackReports }, null, 2));
  else {
    printText(header, scenarios);
    printAttacks(attackReports);
    const failedAttacks = attackReports.filter((a) => a.checks.some((c) => !c.pass)).map((a) => a.id);
    console.log(
      `\n${passed ? 'PASS' : 'FAIL'}: ${checks.filter((c) => c.pass).length} of ${checks.length} checks${
        attackReports.length === 0 ? '' : `; attacks failing a bound: ${failedAttacks.length === 0 ? 'none' : failedAttacks.join(', ')}`
      }`,
    );
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(usage ? `npm run load: ${(error as Error).message}` : error);
    process.exitCode = usage ? 2 : 1;
  },
);
