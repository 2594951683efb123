/**
 * The contract kit's budget, scope and modes against the reference server: the budget is shared so that a low cap
 * leaves the run incomplete (exit 3) rather than conformant, `--no-auth` and `--only-no-job` leave their checks
 * out, a request that gets no answer in time fails its check and the run goes on, and an unreachable target is
 * reported as such (exit 2).
 */
import { describe, expect, it } from 'vitest';
import type { AppResponse } from '../scripts/server/app.js';
import { exitCode, formatText, runContract } from '../scripts/contract/index.js';
import { kitTarget, startedAndCancelled, type Handler } from './support/kitTarget.js';
import { TOKEN, byName, failing } from './support/contractReports.js';

describe('budget, scope and modes', () => {
  it('a low maxRequests is shared among the checks: each keeps its part, the run is incomplete (exit 3), jobs are cancelled', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const cap = 300;
      const report = await runContract(server.options({ maxRequests: cap }));
      expect(report.requests).toBeLessThanOrEqual(cap);
      expect(server.log.length).toBeLessThanOrEqual(cap);
      expect(failing(report), formatText(report)).toEqual([]);
      const skipped = report.checks.filter((c) => c.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((c) => c.detail?.includes('share of the request budget'))).toBe(true);
      // Shares, not first come first served: checks at the end of the order still ran.
      expect(report.checks.slice(-10).some((c) => c.requests > 0)).toBe(true);
      expect(exitCode(report)).toBe(3);
      expect(formatText(report)).toMatch(/incomplete: \d+ in-scope checks? did not run to a verdict/);
      const { started, cancelled } = startedAndCancelled(server.log);
      expect(started.filter((id) => !cancelled.has(id))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('maxRequests 0: nothing is sent, every check is skipped, incomplete (exit 3)', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const report = await runContract(server.options({ maxRequests: 0 }));
      expect(server.log).toEqual([]);
      expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
      expect(exitCode(report)).toBe(3);
      expect(formatText(report).trimEnd().split('\n').pop()).toBe('incomplete');
    } finally {
      await server.close();
    }
  });

  it('--no-auth against a server without auth: the auth checks are left out of the run, no token is sent, conformant', async () => {
    const server = await kitTarget({ token: undefined });
    try {
      // The token goes on every request in one place (http.ts), which the behaviour checks go through like the rest:
      // the other checks, once each, show that none sends it.
      const report = await runContract(server.options({ token: undefined, versions: ['v2'], runs: 1, behaviour: false }));
      const checks = byName(report);
      for (const name of ['auth.missing', 'auth.wrongToken']) {
        expect(checks.get(name)).toMatchObject({ status: 'skipped', inScope: false });
        expect(checks.get(name)?.detail).toContain('--no-auth');
      }
      const others = report.checks.filter((c) => !c.name.startsWith('auth.') && !c.detail?.includes('--no-behaviour'));
      expect(others.length).toBeGreaterThan(50);
      expect(
        others.every((c) => c.status === 'pass'),
        formatText(report),
      ).toBe(true);
      expect(server.log.every((e) => e.authorization === undefined)).toBe(true);
      expect(exitCode(report)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('onlyNoJob: no job is started, the checks that would start one are left out (at service level, where the others are)', async () => {
    const server = await kitTarget({ token: TOKEN });
    try {
      const report = await runContract(server.options({ onlyNoJob: true, level: 'service' }));
      expect(failing(report)).toEqual([]);
      expect(startedAndCancelled(server.log).started).toEqual([]);
      const checks = byName(report);
      expect(checks.get('v2.crawl.start.valid')).toMatchObject({ status: 'skipped', inScope: false });
      // A refusal is evidence only against its accepted base, which starts a job: the refusal checks are left out too.
      expect(checks.get('v2.crawl.start.invalid.wrongType')).toMatchObject({ status: 'skipped', inScope: false });
      expect(checks.get('auth.missing')).toMatchObject({ status: 'skipped', inScope: false });
      expect(checks.get('v2.status.undocumentedStatus')?.status).toBe('pass');
      expect(exitCode(report)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a request that gets no answer in time fails its check (network) at its level, and the run goes on', async () => {
    const hang: Handler = (request, next) =>
      request.method === 'GET' && request.url.startsWith('/v2/crawl/c0ffee00') ? new Promise<AppResponse>(() => {}) : next(request);
    const server = await kitTarget({ token: TOKEN, deviate: hang });
    // Every other request must be answered within the timeout, also on a loaded 2-core machine running the suite
    // in parallel: 300 ms once timed out an ordinary one there. The hanging request costs the run this long.
    const timeoutMs = 3_000;
    try {
      const [atInterface, atService] = await Promise.all([
        runContract(server.options({ versions: ['v2'], onlyNoJob: true, timeoutMs })),
        runContract(server.options({ versions: ['v2'], onlyNoJob: true, timeoutMs, level: 'service' })),
      ]);
      // The job endpoints are the service's: at interface level the missing answer is a difference, and no check
      // of interface level ran, so the run proved nothing (incomplete).
      expect(failing(atInterface)).toEqual([]);
      expect(byName(atInterface).get('v2.status.undocumentedStatus')?.differences[0]).toMatchObject({ kind: 'network', level: 'service' });
      expect(exitCode(atInterface)).toBe(3);
      expect(failing(atService).map((c) => c.name)).toEqual(['v2.status.undocumentedStatus']);
      const [failure] = failing(atService)[0]!.failures;
      expect(failure).toMatchObject({ kind: 'network', level: 'service' });
      expect(failure!.got).toBeUndefined();
      expect(failure!.request).toContain(`${server.url}/v2/crawl/c0ffee00`);
      expect(exitCode(atService)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an unreachable target (a closed port) is reported as unreachable, exit 2', async () => {
    const server = await kitTarget({ token: TOKEN });
    const options = server.options();
    await server.close();
    const report = await runContract(options);
    expect(report.unreachable).toBe(true);
    expect(report.unreachableReason).toMatch(/ECONNREFUSED/);
    expect(exitCode(report)).toBe(2);
    expect(report.checks.every((c) => c.status === 'skipped')).toBe(true);
    // One request per check running at once, before the first refused connection is known.
    expect(report.requests).toBeLessThanOrEqual(4);
    expect(formatText(report)).toContain('target unreachable');
  });
});
