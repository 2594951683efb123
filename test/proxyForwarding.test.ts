/**
 * Issue 41, where the validating proxy forwards, to whom it answers, what it writes: a request target that would
 * leave the target is refused 400 and sent nowhere (finding 1), a foreign Host is answered 421 (finding 7), and
 * the token is redacted in everything it reports (finding 11).
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureServer } from './support/captureServer.js';
import { kitTarget, type KitTarget } from './support/kitTarget.js';
import { TOKEN, closedPort, post, proxyFor } from './support/proxyRuns.js';

/**
 * A request sent as written: node:http sends the request target and the Host header as given (fetch would
 * normalise the one and set the other).
 */
function rawRequest(
  base: string,
  target: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('issue 41: where the proxy forwards, to whom it answers, what it writes', () => {
  let target: KitTarget;
  beforeAll(async () => {
    target = await kitTarget({ token: TOKEN });
  });
  afterAll(() => target.close());
  const auth = { authorization: `Bearer ${TOKEN}` };

  it('finding 1: a request target that would leave the target (//host, /\\host, a full address, dot segments) is refused 400 and sent nowhere', async () => {
    const other = await startCaptureServer();
    const { proxy } = await proxyFor(target.url);
    const prefixed = await proxyFor(`${other.baseUrl}/api`);
    try {
      const before = target.log.length;
      const host = new URL(other.baseUrl).host;
      const refused = [
        [proxy.url, `//${host}/admin`],
        [proxy.url, `/\\${host}/x`],
        [proxy.url, `${other.baseUrl}/admin`],
        [prefixed.proxy.url, '/../admin'],
        [prefixed.proxy.url, '/v2/%2E%2e/%2e%2E/admin'],
        // A client whose base address ends in `/`: refused, not normalised (the path is never read as an authority).
        [proxy.url, '//v2/crawl'],
      ] as const;
      for (const [base, path] of refused) {
        const answer = await rawRequest(base, path, { headers: auth });
        expect(answer.status, path).toBe(400);
        expect(JSON.parse(answer.body), path).toEqual({
          success: false,
          error: expect.stringMatching(/^crawlspec proxy: the request target ".*" .*; expected a path on the target/),
        });
      }
      expect(other.requests).toEqual([]);
      expect(target.log.length).toBe(before);
      // A path on the target goes through, under the prefix.
      expect((await rawRequest(prefixed.proxy.url, '/v2/crawl/active', { headers: auth })).status).toBe(404);
      expect(other.requests.map((r) => r.path)).toEqual(['/api/v2/crawl/active']);
    } finally {
      await proxy.close();
      await prefixed.proxy.close();
      await other.close();
    }
  });

  it("finding 7: a Host that is not the proxy's own is answered 421 and not forwarded (DNS rebinding), starts included", async () => {
    const { proxy } = await proxyFor(target.url);
    try {
      const before = target.log.length;
      const body = JSON.stringify({ url: `${target.url}/site/`, limit: 1 });
      const headers = { ...auth, 'content-type': 'application/json', host: 'rebound.example' };
      for (const [method, path] of [
        ['POST', '/v2/crawl'],
        ['GET', '/v2/crawl/active'],
      ] as const) {
        const answer = await rawRequest(proxy.url, path, { method, headers, ...(method === 'POST' ? { body } : {}) });
        expect(answer.status).toBe(421);
        expect(JSON.parse(answer.body)).toEqual({
          success: false,
          error: `Misdirected request: this server does not answer to Host "rebound.example"; expected one of its own names, e.g. ${new URL(proxy.url).host}`,
        });
      }
      expect(target.log.length).toBe(before);
      // Its own names, on any port: localhost, the address it listens on.
      const local = await rawRequest(proxy.url, '/v2/crawl/active', { headers: { ...auth, host: `localhost:${new URL(proxy.url).port}` } });
      expect(local.status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('finding 11: the token is redacted in everything it reports: a body key (at), the path, a notice', async () => {
    const { proxy, seen } = await proxyFor(target.url);
    const nowhere = await proxyFor(`http://127.0.0.1:${await closedPort()}`);
    try {
      await post(proxy.url, '/v2/crawl', JSON.stringify({ url: `${target.url}/site/`, [TOKEN]: 1 }));
      expect(seen.map((s) => s.violation)).toEqual([expect.objectContaining({ side: 'request', at: expect.stringContaining('***') })]);
      await rawRequest(nowhere.proxy.url, `/v2/crawl/${TOKEN}`, { headers: auth });
      expect(nowhere.notices).toEqual([expect.stringMatching(/^GET \/v2\/crawl\/\*\*\*: the target did not answer/)]);
      for (const text of [JSON.stringify(seen), ...nowhere.notices]) expect(text).not.toContain(TOKEN);
    } finally {
      await proxy.close();
      await nowhere.proxy.close();
    }
  });
});
