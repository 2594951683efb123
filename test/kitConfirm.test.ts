/**
 * `--confirm N` (scripts/contract/engine/confirm.ts): a failing crawl-behaviour check is run N times more and says in
 * how many of its runs it failed. Against a variant whose crawler is broken, every run fails (confirmed);
 * against a flaky one that breaks every other crawl, some do (flaky). The verdict fails either way. A check
 * that passes, or that is no behaviour check, is not run again.
 */
import { describe, expect, it } from 'vitest';
import type { ReferenceApp } from '../scripts/server/app.js';
import { exitCode, formatText, runContract, type CheckResult, type ContractReport } from '../scripts/contract/index.js';
import { BROKEN_CRAWLERS, BROKEN_SERVERS, BROKEN_SERVER_TOKEN } from './support/brokenServers.js';
import { kitTarget } from './support/kitTarget.js';

const CHECK = 'v2.crawl.behaviour.includePaths';
const variant = (name: string) => [...BROKEN_CRAWLERS, ...BROKEN_SERVERS].find((v) => v.name === name)!;

/** `broken` for every other crawl start that has includePaths (the first broken), the correct app for the rest. */
function everyOtherCrawl(broken: (app: ReferenceApp) => ReferenceApp): (app: ReferenceApp) => ReferenceApp {
  return (app) => {
    const wrong = broken(app);
    let crawls = 0;
    return {
      ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
      handle: (request) => {
        const isCrawl = request.method === 'POST' && /^\/v2\/crawl$/.test(request.url) && request.body.includes('"includePaths"');
        return isCrawl && (crawls += 1) % 2 === 1 ? wrong.handle(request) : app.handle(request);
      },
      close: () => app.close(),
    };
  };
}

async function runOn(wrap: ((app: ReferenceApp) => ReferenceApp) | undefined, only: string[], confirm: number): Promise<ContractReport> {
  const target = await kitTarget({ token: BROKEN_SERVER_TOKEN, ...(wrap === undefined ? {} : { wrap }) });
  try {
    return await runContract(target.options({ versions: ['v2'], only, runs: 1, confirm }));
  } finally {
    await target.close();
  }
}

const named = (report: ContractReport, name: string): CheckResult => report.checks.find((c) => c.name === name)!;

describe('--confirm', () => {
  it('a broken crawler fails every run: confirmed, failed 3 of 3', async () => {
    const report = await runOn(variant('crawl.patternsOnFullURL').wrap, [CHECK], 2);
    const check = named(report, CHECK);
    expect(check.status, formatText(report)).toBe('fail');
    expect(check.confirmations).toEqual({ runs: 3, failed: 3 });
    expect(formatText(report)).toMatch(
      new RegExp(`^FAIL\\s+${CHECK.replace(/\./g, '\\.')}  \\(\\d+ failures?; confirmed: failed 3 of 3 runs \\(--confirm\\)\\)$`, 'm'),
    );
    expect(exitCode(report)).toBe(1);
  }, 120_000);

  it('a crawler broken on every other crawl: flaky, failed 2 of 3, and the run still fails', async () => {
    const report = await runOn(everyOtherCrawl(variant('crawl.patternsOnFullURL').wrap), [CHECK], 2);
    const check = named(report, CHECK);
    expect(check.status, formatText(report)).toBe('fail');
    expect(check.confirmations).toEqual({ runs: 3, failed: 2 });
    expect(formatText(report)).toMatch(/; flaky: failed 2 of 3 runs \(--confirm\)\)$/m);
    expect(exitCode(report)).toBe(1);
  }, 120_000);

  it('a passing behaviour check and a failing check of another kind are not run again', async () => {
    const correct = await runOn(undefined, [CHECK], 2);
    expect(named(correct, CHECK).status, formatText(correct)).toBe('pass');
    expect(named(correct, CHECK).confirmations).toBeUndefined();
    const malformed = await runOn(variant('json.malformedIs500').wrap, ['json.malformed'], 2);
    expect(named(malformed, 'json.malformed').status).toBe('fail');
    expect(named(malformed, 'json.malformed').confirmations).toBeUndefined();
  }, 120_000);
});
