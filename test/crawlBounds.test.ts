/**
 * What a crawl of the reference server spends and holds is bounded (issue 22, findings 2–5), in the small:
 * what the attack stage of `npm run load` replays against a whole server (scripts/load/attacks/afterPage.ts),
 * here against `createReferenceApp` on a port, crawling hostile sites on 127.0.0.1 (scripts/load/attacks/sites.ts).
 *   2. robots.txt is bounded before robots-parser reads it, with the same verdicts within the bounds, and
 *      judging an address against it is paid from a budget per page: a costly robots.txt leaves links out
 *      (listed as an error) instead of holding the server;
 *   3. addresses found are bounded in length, and what a crawl holds of them in bytes, within the server's holdings;
 *   4. an ended crawl gives back what it held to go on;
 *   5. `robotsBlocked` lists at most MAX_ROBOTS_BLOCKED_LISTED addresses, the rest counted.
 */
import fc from 'fast-check';
import robotsModule from 'robots-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../schemas/validate.js';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { MAX_CRAWL_STATE_BYTES, MAX_LINK_CHARS, MAX_ROBOTS_BLOCKED_LISTED, ROBOTS_STEP_BUDGET } from '../scripts/server/crawler.js';
import { listen, type Listening } from '../scripts/server/http.js';
import { boundRobots, MAX_ROBOTS_AGENTS, MAX_ROBOTS_LINE_CHARS, MAX_ROBOTS_RULES } from '../scripts/server/robots.js';
import {
  costlyRobots,
  digitsPage,
  hostileSite,
  largeRobots,
  linkFarm,
  longPathLinksPage,
  robotsSite,
  type Answer,
  type HostileSite,
} from '../scripts/load/attacks/sites.js';
import { untilEnded } from './support/untilEnded.js';
import { longestTurn } from './support/cpuTime.js';

// robots-parser is CommonJS with types that declare an ES default export (as in schemas/crawl/rules.ts).
type RobotsParser = (typeof robotsModule)['default'];
const robotsParser = robotsModule as unknown as RobotsParser;

const TIMEOUT_MS = 60_000;
const closing: { close(): Promise<void> | void }[] = [];

afterEach(async () => {
  for (const thing of closing.splice(0).reverse()) await thing.close();
});

/** Bytes the server holds for its jobs: all it holds, less its page cache's (pages fetched, kept for later scrapes). */
const jobBytes = (app: InMemoryReferenceApp): number => app.stats().heldBytes - app.stats().cachedBytes;

async function server(): Promise<{ app: InMemoryReferenceApp; url: string }> {
  let base = '';
  // The hostile sites listen on 127.0.0.1: allowed on every port (the server crawls no other loopback port than its own unless allowed).
  const app = createReferenceApp({
    auth: 'none',
    publicUrl: () => base,
    pageIntervalMs: 1,
    allowFetchHost: (host) => host === '127.0.0.1',
  });
  const listening: Listening = await listen(app);
  base = listening.url;
  closing.push({ close: () => app.close() }, listening);
  return { app, url: base };
}

async function site(route: (path: string) => Answer): Promise<HostileSite> {
  const s = await hostileSite(route);
  closing.push(s);
  return s;
}

async function call(url: string, method = 'GET', body?: unknown): Promise<any> {
  const response = await fetch(url, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return response.json();
}

/** Runs a v2 crawl to its end: its status and its errors endpoint's answer. */
async function crawl(base: string, body: Record<string, unknown>): Promise<{ status: any; errors: any }> {
  const started = await call(`${base}/v2/crawl`, 'POST', { sitemap: 'skip', scrapeOptions: { formats: [] }, ...body });
  expect(started.success).toBe(true);
  const status = await untilEnded(() => call(started.url), started.url, { timeoutMs: TIMEOUT_MS, everyMs: 20 });
  return { status, errors: await call(`${started.url}/errors`) };
}

describe('finding 2: robots.txt bounded before robots-parser reads it', () => {
  const verdict = (text: string, url: string) => robotsParser('http://a.test/robots.txt', text).isAllowed(url, 'crawlspec');

  it('gives the same verdicts as the whole file, for files within the bounds (runs of * written as one)', () => {
    const token = fc.constantFrom('/', 'a', 'b', '*', '$', '?', '=', '%2F', 'é', '.');
    const pattern = fc.array(token, { maxLength: 8 }).map((t) => t.join(''));
    const line = fc.oneof(
      fc.constantFrom(
        'User-agent: *',
        'User-agent: crawlspec',
        'User-agent: other',
        '',
        '# comment',
        'Sitemap: http://a.test/s.xml',
        'Crawl-delay: 1',
      ),
      fc
        .tuple(fc.constantFrom('Allow', 'Disallow', 'disallow'), pattern, fc.constantFrom('', ' # why'))
        .map(([d, p, c]) => `${d}: ${p}${c}`),
    );
    const file = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n'));
    const path = fc.array(token, { maxLength: 10 }).map((t) => `http://a.test/${t.join('')}`);
    fc.assert(
      fc.property(file, fc.array(path, { minLength: 1, maxLength: 5 }), (text, urls) => {
        const bounded = boundRobots(text, false);
        for (const url of urls) expect(verdict(bounded.text, url), `${url} against\n${text}`).toBe(verdict(text, url));
        expect(bounded.sitemaps).toEqual(robotsParser('http://a.test/robots.txt', text).getSitemaps());
      }),
      { numRuns: 500, seed: 22 },
    );
  });

  it('drops the line the byte bound cut, cuts long lines, and reads rules and user agents up to their bounds', () => {
    expect(boundRobots('User-agent: *\nDisallow: /a\nDisallow: /b', true).text).toBe('User-agent: *\nDisallow: /a');
    const long = boundRobots(`User-agent: *\nDisallow: /${'x'.repeat(2 * MAX_ROBOTS_LINE_CHARS)}`, false).text.split('\n')[1]!;
    expect(long.length).toBeLessThanOrEqual(MAX_ROBOTS_LINE_CHARS);
    const rules = Array.from({ length: MAX_ROBOTS_RULES + 10 }, (_, i) => `Disallow: /r${i}/`);
    const read = boundRobots(['User-agent: *', ...rules, 'User-agent: next', 'Disallow: /after'].join('\n'), false);
    expect(verdict(read.text, `http://a.test/r${MAX_ROBOTS_RULES - 1}/`)).toBe(false);
    expect(verdict(read.text, `http://a.test/r${MAX_ROBOTS_RULES}/`)).toBe(true);
    // A rule line past the bound still ends its group's agents: `next` is a group of its own, without rules.
    expect(robotsParser('http://a.test/robots.txt', read.text).isAllowed('http://a.test/r1/', 'next')).toBe(true);
    const agents = Array.from({ length: MAX_ROBOTS_AGENTS + 1 }, (_, i) => `User-agent: bot${i}`);
    const grouped = boundRobots([...agents, 'Disallow: /'].join('\n'), false).text;
    expect(robotsParser('http://a.test/robots.txt', grouped).isAllowed('http://a.test/x', `bot${MAX_ROBOTS_AGENTS - 1}`)).toBe(false);
    expect(robotsParser('http://a.test/robots.txt', grouped).isAllowed('http://a.test/x', `bot${MAX_ROBOTS_AGENTS}`)).toBe(true);
  });

  it('reckons a wildcard rule at its length times the path, and an ordinary file at little', () => {
    const costly = boundRobots(costlyRobots(300_000, 12), false);
    const ordinary = boundRobots('User-agent: *\nDisallow: /private/\nDisallow: /*?session=\nAllow: /public/\n', false);
    const longPath = new URL(`http://a.test/${'a'.repeat(1500)}`);
    expect(costly.cost(longPath)).toBeGreaterThan(ROBOTS_STEP_BUDGET);
    expect(ordinary.cost(longPath)).toBeLessThan(ROBOTS_STEP_BUDGET / 1000);
    expect(ordinary.cost(new URL('http://a.test/docs/page'))).toBeLessThan(1000);
    // The 300 KB run of `*` is one `*`: alone it costs little.
    expect(boundRobots(costlyRobots(300_000, 0), false).cost(longPath)).toBeLessThan(ROBOTS_STEP_BUDGET / 1000);
  });

  it('a crawl of a site whose robots.txt is costly to match leaves the links out, says so, and never holds the event loop long', async () => {
    const { url } = await server();
    const hostile = await site(robotsSite(costlyRobots(300_000, 12), longPathLinksPage(10, 1500)));
    let result: Awaited<ReturnType<typeof crawl>> | undefined;
    const worst = await longestTurn(async () => {
      result = await crawl(url, { url: `${hostile.origin}/`, limit: 20 });
    });
    const { status, errors } = result!;
    expect(status).toMatchObject({ status: 'completed', completed: 1 });
    expect(errors.errors).toEqual([
      expect.objectContaining({
        url: `${hostile.origin}/`,
        error: expect.stringMatching(/^10 links on this page were not followed: judging them against robots.txt/),
      }),
    ]);
    expect(validate('v2/JobErrorsResponse', errors).valid).toBe(true);
    // The finding: 8–11 s in one turn for 3 such links. Generous for a loaded machine.
    expect(worst).toBeLessThan(2_000);
  });
});

describe('findings 3 and 4: what a crawl holds of the addresses it finds', () => {
  it(`follows no address longer than ${MAX_LINK_CHARS} characters`, async () => {
    const { app, url } = await server();
    const farm = await site(linkFarm(1000, 5000, false));
    const before = jobBytes(app);
    const { status } = await crawl(url, { url: `${farm.origin}/`, limit: 5 });
    expect(status).toMatchObject({ status: 'completed', completed: 1 });
    expect(farm.requests).toBe(2); // robots.txt and the start
    expect(jobBytes(app) - before).toBeLessThan(100_000);
  });

  it(`holds at most ${MAX_CRAWL_STATE_BYTES / 1024 / 1024} MiB of addresses, counted in the server's holdings, and gives them back when it ends`, async () => {
    const { app, url } = await server();
    const farm = await site(linkFarm(1000, MAX_LINK_CHARS - 100, false));
    const started = await call(`${url}/v2/crawl`, 'POST', {
      url: `${farm.origin}/`,
      limit: 25,
      maxConcurrency: 8,
      sitemap: 'skip',
      scrapeOptions: { formats: [] },
    });
    const idle = jobBytes(app);
    let most = 0;
    const status = await untilEnded(
      async () => {
        most = Math.max(most, jobBytes(app));
        return call(started.url);
      },
      started.url,
      { timeoutMs: TIMEOUT_MS, everyMs: 5 },
    );
    expect(status).toMatchObject({ status: 'completed', completed: 25 });
    // 25 pages of 1000 distinct addresses of ~2 KB: 50 MB found, at most the bound held (and something was).
    expect(most - idle).toBeGreaterThan(MAX_CRAWL_STATE_BYTES / 2);
    expect(most - idle).toBeLessThanOrEqual(MAX_CRAWL_STATE_BYTES + 1_000_000);
    const { errors } = await call(`${started.url}/errors`);
    expect(errors).toEqual([
      expect.objectContaining({
        url: `${farm.origin}/`,
        error: expect.stringMatching(/^The crawl stopped taking new addresses \(it holds 32 MiB/),
      }),
    ]);
    // Ended: what it held to go on is given back; its records (25 small ones) and request stay.
    expect(jobBytes(app) - idle).toBeLessThan(200_000);
  });
});

describe('finding 5: robotsBlocked is bounded', () => {
  it(`lists at most ${MAX_ROBOTS_BLOCKED_LISTED} addresses and counts the rest, in an answer the schema accepts`, async () => {
    const { url } = await server();
    const farm = await site(linkFarm(500, 60, true));
    const { status, errors } = await crawl(url, { url: `${farm.origin}/farm/`, limit: 5, maxConcurrency: 4 });
    expect(status).toMatchObject({ status: 'completed', completed: 5 });
    expect(errors.robotsBlocked).toHaveLength(MAX_ROBOTS_BLOCKED_LISTED);
    expect(new Set(errors.robotsBlocked).size).toBe(MAX_ROBOTS_BLOCKED_LISTED);
    // Five pages read, 500 blocked links each: 2500 blocked, 1000 listed.
    expect(errors.errors).toEqual([
      expect.objectContaining({
        url: `${farm.origin}/farm/`,
        error: `robots.txt disallowed 1500 more addresses than robotsBlocked lists (it lists the first ${MAX_ROBOTS_BLOCKED_LISTED}).`,
      }),
    ]);
    expect(validate('v2/JobErrorsResponse', errors).valid).toBe(true);
  });
});

describe("the attacks' sites are the findings'", () => {
  const body = (answer: Answer) => (answer === 'hang' ? '' : answer.body);

  it('1: one text node of digits; 2: a 300 KB rule and wildcard rules as long as a line may be, 10 links of 1,500 characters', () => {
    expect(/<p>(1+)<\/p>/.exec(body(digitsPage(120_000)))?.[1]).toHaveLength(120_000);
    const robots = costlyRobots(300_000, 12);
    const lines = robots.trimEnd().split('\n');
    expect(Buffer.byteLength(robots)).toBeLessThanOrEqual(500 * 1024);
    expect(lines.filter((l) => l.length > MAX_ROBOTS_LINE_CHARS)).toHaveLength(1); // the 300 KB rule
    expect(lines.filter((l) => l.includes('*a*a')).every((l) => l.length <= MAX_ROBOTS_LINE_CHARS && l.length > 16_000)).toBe(true);
    const links = [...body(longPathLinksPage(10, 1500)).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(links.map((l) => l.length)).toEqual(Array(10).fill(1500));
  });

  it('3, 5: farm pages of 1,000 distinct links of the length asked; 4: a robots.txt of 500 KB', () => {
    for (const [length, disallowed] of [
      [5000, false],
      [130, true],
    ] as const) {
      const route = linkFarm(1000, length, disallowed);
      const links = [...body(route('/farm/7')).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      const farm = links.filter((l) => l.length > 40);
      expect(new Set(farm).size).toBe(1000);
      expect(farm.every((l) => l.length === length)).toBe(true);
      expect(links.length - farm.length).toBe(disallowed ? 4 : 0);
    }
    const robots = largeRobots(500 * 1024 - 100);
    expect(Buffer.byteLength(robots)).toBeGreaterThan(500_000);
    expect(Buffer.byteLength(robots)).toBeLessThanOrEqual(500 * 1024);
  });
});
