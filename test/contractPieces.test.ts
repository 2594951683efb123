/**
 * The contract kit's pieces on their own: Retry-After, curl lines, the site and port checks before anything is
 * sent, the fields and enum values sent on the kit's sites, redaction of the token in every spelling, and XML
 * escaping.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../scripts/contract/wire/http.js';
import { escapeXml } from '../scripts/contract/reporters/junit.js';
import { runContract, UNKNOWN_SITE } from '../scripts/contract/index.js';
import { toCurl } from '../scripts/contract/wire/curl.js';
import { type ContractOptions } from '../scripts/contract/engine/options.js';
import { redact, runRedaction } from '../scripts/contract/wire/redact.js';
import { withCpuMs } from './support/cpuTime.js';
import { fieldPlan } from '../scripts/contract/checks/requests/fields.js';
import { TEST_SITE_PROFILE } from '../scripts/site/testSite.js';
import { REFERENCE_SITE_PROFILE } from '../scripts/server/site.js';
import { TOKEN } from './support/contractReports.js';

describe('pieces', () => {
  it('Retry-After: seconds or a date, bounded', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('3600')).toBe(30_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5000);
    expect(retryAfterMs('soon')).toBe(1000);
  });

  it('curl: single quotes survive the shell, the token is redacted', async () => {
    const line = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:1/v2/crawl',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: `{"url":"https://example.com/it's"}`,
    });
    expect(line).not.toContain(TOKEN);
    expect(line).toContain(`-H 'Authorization: Bearer ***'`);
    const { stdout } = await promisify(execFile)('sh', ['-c', `printf '%s\\n' ${line.slice('curl '.length)}`]);
    expect(stdout.split('\n')).toContain(`{"url":"https://example.com/it's"}`);
  });

  it('a site that is no valid crawl address is refused before anything is sent', async () => {
    await expect(
      runContract({
        baseUrl: 'http://127.0.0.1:4',
        token: TOKEN,
        versions: ['v1'],
        seed: 1,
        runs: 1,
        concurrency: 1,
        siteUrl: 'http://localhost:8080',
      }),
    ).rejects.toThrow(/siteUrl http:\/\/localhost:8080 is not a valid v1 crawl address: URL must have a valid top-level domain/);
  });

  it('the kit reaches a target on any port; an address the target is to fetch, on a port fetch never connects to, is refused first', async () => {
    const run = (port: number, extra: Partial<ContractOptions> = {}) =>
      runContract({
        baseUrl: `http://127.0.0.1:${port}`,
        token: TOKEN,
        versions: ['v1'],
        seed: 1,
        runs: 1,
        concurrency: 1,
        only: ['none'],
        ...extra,
      });
    // The kit's own requests go over node:http, which has no bad ports.
    await expect(run(6000)).resolves.toMatchObject({ checks: expect.any(Array) });
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:6000/hooks' })).rejects.toThrow(
      /^webhookUrl http:\/\/127\.0\.0\.1:6000\/hooks uses port 6000, which a target built on fetch never connects to \(the Fetch standard's bad ports\); use another port$/,
    );
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:1/hooks' })).rejects.toThrow(/uses port 1,/);
    await expect(run(6001, { webhookUrl: 'http://127.0.0.1:6001/hooks' })).resolves.toMatchObject({ checks: expect.any(Array) });
  });

  it("every field and enum value the interface states is sent on the kit's sites and on a deep site address", () => {
    const sites = [
      { siteUrl: 'http://127.0.0.1:4000', site: TEST_SITE_PROFILE },
      { siteUrl: 'http://127.0.0.1:4000/site', site: REFERENCE_SITE_PROFILE },
      { siteUrl: 'https://example.com/a/b/c/d', site: UNKNOWN_SITE },
    ];
    for (const site of sites)
      for (const version of ['v1', 'v2'] as const)
        for (const kind of ['crawl', 'batch'] as const) {
          const plan = fieldPlan(version, kind, site);
          expect(plan.unsent, `${site.siteUrl} ${version} ${kind}`).toEqual({ alone: [], enumValues: [] });
          // Each optional member of an object field stands alone in one body (location: country, then languages).
          const location = plan.alone.filter((b) => b.field.endsWith('location')).map((b) => Object.keys(b.value as object));
          expect(location).toEqual([['country'], ['languages']]);
        }
  });

  it('redaction: a token in every spelling, wherever it stands; a short one only as a word of its own', () => {
    expect(redact({ a: `x${TOKEN}y`, b: [encodeURIComponent(`${TOKEN}/`)], [TOKEN]: 1 }, { secrets: [TOKEN] })).toEqual({
      a: 'x***y',
      b: ['***%2F'],
      '***': 1,
    });
    expect(redact('a "quote\\"d" token', { secrets: ['quote"d'] })).toBe('a "***" token');
    const token = 'fc-Sec/ret+To<ken>&"9';
    const base64 = (text: string, alphabet: BufferEncoding = 'base64') => Buffer.from(text).toString(alphabet);
    const spellings = [
      token.toUpperCase(),
      encodeURIComponent(token).toLowerCase(),
      encodeURIComponent(encodeURIComponent(token)),
      JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/'),
      JSON.stringify(token)
        .slice(1, -1)
        .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
      token.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    ];
    for (const spelling of spellings) expect(redact(`<${spelling}>`, { secrets: [token] }), spelling).toBe('<***>');
    // Base64 at each alignment: only the characters the token alone determines can be recognised.
    for (const prefix of ['', 'u', 'us', 'user:']) {
      for (const alphabet of ['base64', 'base64url'] as const) {
        const encoded = base64(`${prefix}${token}!`, alphabet);
        const cleaned = redact(encoded, { secrets: [token] });
        expect(cleaned, `${alphabet} after ${JSON.stringify(prefix)}`).toContain('***');
        expect(cleaned.length, 'at most 4 characters left of the encoding on either side').toBeLessThanOrEqual(
          3 + 4 + 4 + Math.ceil((prefix.length * 4) / 3),
        );
      }
    }
    expect(redact('auth.missing: t, Bearer t', { secrets: ['t'] })).toBe('auth.missing: ***, Bearer ***');
    expect(redact({ n: 5 }, { secrets: [undefined] })).toEqual({ n: 5 });
  });

  it("redaction leaves the run's own addresses whole: a short secret (`1`, `127`) eats into none of them, and is cleaned elsewhere", () => {
    const redaction = runRedaction({
      token: '127',
      headers: { 'X-A': '1' },
      baseUrl: 'http://127.0.0.1:1',
      siteUrl: 'http://127.0.0.1:4001/site',
    });
    const text =
      'crawlspec contract: http://127.0.0.1:1 (v1, v2); connect ECONNREFUSED 127.0.0.1:1; page http://127.0.0.1:4001/site/a; echoed 1 and 127';
    expect(redact(text, redaction)).toBe(
      'crawlspec contract: http://127.0.0.1:1 (v1, v2); connect ECONNREFUSED 127.0.0.1:1; page http://127.0.0.1:4001/site/a; echoed *** and ***',
    );
    // Kept only where the secret lies wholly within an address: one that runs on past it is cleaned.
    const long = runRedaction({ token: '1:1secret-and-more', baseUrl: 'http://127.0.0.1:1' });
    expect(redact('at 127.0.0.1:1secret-and-more', long)).toBe('at 127.0.0.***');
    // No address given: as before.
    expect(redact('127.0.0.1:1', { secrets: ['1'] })).toBe('127.0.0.***:***');
    // Linear in what a target echoes: 10^5 addresses each holding the secret twice (it took their product before).
    const echoed = 'http://127.0.0.1:1 '.repeat(100_000);
    const [cleaned, cpuMs] = withCpuMs(() => redact(`${echoed}1`, redaction));
    expect(cleaned).toBe(`${echoed}***`);
    expect(cpuMs).toBeLessThan(5_000);
  });

  it('XML escaping drops what XML cannot hold', () => {
    const nasty = `a<b>&"'\u0000\u0007\uD800z`;
    expect(escapeXml(nasty)).toBe('a&lt;b&gt;&amp;&quot;&apos;\uFFFDz');
  });
});
