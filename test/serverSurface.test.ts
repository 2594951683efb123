/**
 * Issue 22, findings 7 and 13: a reference server a web page cannot use, and webhook deliveries a caller cannot
 * frame. A request naming another Host is refused (DNS rebinding); a start whose body is not declared JSON is
 * refused before it is read (a form or a no-cors fetch sends text/plain, or no type, without a preflight); jobs
 * fetch from no loopback port but the server's own unless allowed (a crawl once read another local service's
 * secret); webhook headers that route or frame a request are not sent. Everything runs on 127.0.0.1, on ports
 * the system picks.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceApp, type InMemoryReferenceApp } from '../scripts/server/app.js';
import { listen, serverNames, type Listening } from '../scripts/server/http.js';
import { createReach } from '../scripts/server/reach.js';
import { deliverableHeaders } from '../scripts/server/webhooks.js';
import { untilEnded } from './support/untilEnded.js';

/** A safety net on every request and every wait for a job: far past what a loaded machine needs. */
const TIMEOUT_MS = 60_000;
const SECRET = 'not-for-the-crawler';
const JSON_TYPE = { 'content-type': 'application/json' };

interface Answer {
  readonly status: number;
  readonly body: any;
}

/** One request with exactly these headers (a `host` included), over a connection of its own. */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the text itself
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.setTimeout(TIMEOUT_MS, () => request.destroy(new Error('no answer')));
    request.on('error', reject);
    request.end(body);
  });
}

/** A loopback service on a port of its own: every request answered with a page holding SECRET, and counted. */
async function secretService(): Promise<{ readonly origin: string; readonly port: number; asked: number; close(): Promise<void> }> {
  const service = {
    origin: '',
    port: 0,
    asked: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((request, response) => {
    service.asked += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${SECRET}</title><p>${SECRET}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.port = (server.address() as AddressInfo).port;
  service.origin = `http://127.0.0.1:${service.port}`;
  return service;
}

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** The reference server on 127.0.0.1 (no auth unless given), closed after the test. */
async function serve(options: Partial<Parameters<typeof createReferenceApp>[0]> = {}, hostNames?: readonly string[]) {
  let base = '';
  const app: InMemoryReferenceApp = createReferenceApp({ auth: 'none', publicUrl: () => base, pageIntervalMs: 5, ...options });
  const server: Listening = await listen(app, hostNames === undefined ? {} : { hostNames });
  base = server.url;
  opened.push({ close: () => app.close() }, server);
  return { app, server, port: Number(new URL(server.url).port) };
}

/** A v2 batch of `urls` through the HTTP interface, read until it has ended: its page records and errors. */
async function batch(port: number, urls: readonly string[]): Promise<{ readonly data: any[]; readonly errors: any[] }> {
  const host = { host: `127.0.0.1:${port}` };
  const started = await raw(port, 'POST', '/v2/batch/scrape', { ...host, ...JSON_TYPE }, JSON.stringify({ urls }));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const path = `/v2/batch/scrape/${started.body.id as string}`;
  const status = await untilEnded(async () => (await raw(port, 'GET', path, host)).body, path, { timeoutMs: TIMEOUT_MS });
  return { data: status.data, errors: (await raw(port, 'GET', `${path}/errors`, host)).body.errors };
}

describe('the names the server answers to (Host)', () => {
  it('refuses a request naming another host, a start or a read alike: 421 with the envelope, before the body is read', async () => {
    const { app, port } = await serve();
    const body = JSON.stringify({ urls: ['https://example.com/'] });
    for (const [method, path, payload] of [
      ['POST', '/v2/batch/scrape', body],
      ['GET', '/v2/crawl/active', ''],
      ['GET', '/site/', ''],
    ] as const) {
      for (const host of [
        'attacker.example',
        `attacker.example:${port}`,
        `evil.example@127.0.0.1:${port}`,
        `127.0.0.1.attacker.example:${port}`,
      ]) {
        const answer = await raw(port, method, path, { host, ...JSON_TYPE }, payload);
        expect(answer, `${method} ${path} Host ${host}`).toEqual({
          status: 421,
          body: {
            success: false,
            error: `Misdirected request: this server does not answer to Host ${JSON.stringify(host)}; expected one of its own names, e.g. 127.0.0.1:${port}`,
          },
        });
      }
    }
    expect(app.stats().jobs).toBe(0);
  });

  it('answers to its address, localhost, 127.0.0.1 and [::1], on any port (a forwarded one), and to the names given', async () => {
    const { port } = await serve({}, ['crawlspec.example.com']);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      '127.0.0.1',
      'localhost:8080',
      'crawlspec.example.com',
      'crawlspec.example.com:443',
    ])
      expect((await raw(port, 'GET', '/v2/crawl/active', { host })).status, host).toBe(200);
  });

  it('refuses a request without a Host header (HTTP/1.0)', async () => {
    const { port } = await serve();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /v2/crawl/active HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 421 /);
    expect(answer).toContain('this server does not answer to a request without a Host header');
  });

  it("a wildcard address answers to the machine's interfaces and its name too; another address only to itself and loopback", () => {
    expect([...serverNames('127.0.0.1')].sort()).toEqual(['127.0.0.1', 'localhost', '[::1]'].sort());
    expect([...serverNames('::1', ['API.example.com'])].sort()).toEqual(['127.0.0.1', 'localhost', '[::1]', 'api.example.com'].sort());
    const wildcard = serverNames('0.0.0.0');
    expect(wildcard.has(hostname().toLowerCase())).toBe(true);
    expect(wildcard.has('127.0.0.1')).toBe(true);
  });
});

describe('starts take JSON (Content-Type: application/json)', () => {
  const body = JSON.stringify({ url: 'https://example.com/' });

  it('refuses a start declared otherwise, or not declared, with 415 and the envelope; starts nothing', async () => {
    const { app, port } = await serve();
    const host = { host: `127.0.0.1:${port}` };
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
      undefined,
    ]) {
      const answer = await raw(port, 'POST', '/v1/crawl', { ...host, ...(type === undefined ? {} : { 'content-type': type }) }, body);
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body).toEqual({
        success: false,
        error: `Unsupported media type: a start takes a JSON body with Content-Type: application/json, not ${type === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(type.split(';')[0])}`}`,
      });
    }
    expect(app.stats().jobs).toBe(0);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON'])
      expect((await raw(port, 'POST', '/v1/crawl', { ...host, 'content-type': type }, body)).status, type).toBe(200);
    // The body of the other endpoints is not asked for a type: a GET has none.
    expect((await raw(port, 'GET', '/v1/crawl/active', host)).status).toBe(200);
  });

  it('checks the token first, then the type, both before the body is read', async () => {
    const { port } = await serve({ auth: { token: 'secret' } });
    const host = { host: `127.0.0.1:${port}` };
    expect((await raw(port, 'POST', '/v2/crawl', { ...host, 'content-type': 'text/plain' }, body)).status).toBe(401);
    // A declared 50 MiB body: answered from the headers (the adapter would refuse a body that large with 413 once read).
    const unread = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /v2/crawl HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer secret\r\nContent-Type: text/plain\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{`,
        ),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(unread).toMatch(/^HTTP\/1\.1 415 /);
  });

  it('handle() refuses it too (an app driven without the HTTP adapter, or wrapped)', async () => {
    const app = createReferenceApp({ auth: 'none', publicUrl: () => 'http://127.0.0.1:1' });
    opened.push({ close: () => app.close() });
    expect((await app.handle({ method: 'POST', url: '/v2/crawl', headers: { 'content-type': 'text/plain' }, body })).status).toBe(415);
    expect((await app.handle({ method: 'POST', url: '/v2/crawl', headers: JSON_TYPE, body })).status).toBe(200);
  });
});

describe("jobs fetch from no loopback port but the server's own unless allowed", () => {
  let service: Awaited<ReturnType<typeof secretService>>;
  beforeAll(async () => {
    service = await secretService();
  });
  afterAll(async () => {
    await service.close();
  });

  it('a page on another loopback port is not fetched by default: an error of its job, saying how to allow it; the service gets no request', async () => {
    const { port } = await serve();
    const asked = service.asked;
    const { data, errors } = await batch(port, [`${service.origin}/secret`, `${service.origin}/other`]);
    expect(service.asked).toBe(asked);
    expect(data).toEqual([]);
    expect(errors.map((e: { url: string; code: string; error: string }) => [e.code, e.error])).toEqual(
      [`${service.origin}/secret`, `${service.origin}/other`].map((url) => [
        'SCRAPE_SITE_ERROR',
        `${url} could not be fetched: ${new URL(url).host} is a loopback port other than this server's own, which it fetches from only when allowed (crawlspec serve --allow-host ${new URL(url).host}; allowFetchHost)`,
      ]),
    );
  });

  it('allowed by host (every port) or by host and port, it is fetched; a port not named is not', async () => {
    for (const allow of [
      (host: string) => host === '127.0.0.1',
      (host: string, port: number | undefined) => host === '127.0.0.1' && port === service.port,
    ]) {
      const { port } = await serve({ allowFetchHost: allow });
      const { data } = await batch(port, [`${service.origin}/secret`]);
      expect(JSON.stringify(data[0])).toContain(SECRET);
    }
    const { port } = await serve({ allowFetchHost: (host, at) => host === '127.0.0.1' && at === service.port + 1 });
    const asked = service.asked;
    await batch(port, [`${service.origin}/secret`]);
    expect(service.asked).toBe(asked);
  });

  it('the reach rule: loopback on the own port alone, other hosts and ports as allowed, the names resolveHosts maps on every port', async () => {
    const own = 8080;
    const reach = createReach({
      ownPort: () => own,
      allow: (host, port) => host === 'intranet.example.com' || (host === '127.0.0.2' && port === 9000),
      resolveHosts: { 'site.example.com': '127.0.0.1' },
    });
    // Loopback is fetched over the network (never made up), and refused before connecting on a port not allowed.
    const refusal = (url: string) => (reach.reachable(new URL(url)) ? (reach.addressRefusal(new URL(url)) ?? 'connects') : 'made up');
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost:8080/',
      'http://[::1]:8080/',
      'http://127.0.0.2:9000/',
      'http://site.example.com:1234/',
    ])
      expect(refusal(url), url).toBe('connects');
    for (const url of [
      'http://127.0.0.1:8081/',
      'http://127.0.0.1/',
      'http://localhost:8081/',
      'http://[::1]:8081/',
      'http://127.0.0.2:9001/',
    ])
      expect(refusal(url), url).toMatch(/ is a loopback port other than this server's own, which it fetches from only when allowed/);
    expect(refusal('http://intranet.example.com:8443/')).toBe('connects');
    expect(refusal('http://10.0.0.1/')).toBe('made up');
    const lookup = (name: string) =>
      new Promise<unknown>((resolve) =>
        reach.lookup(name, { all: true }, (error, addresses) => resolve(error ? (error as Error).message : addresses)),
      );
    expect(await lookup('site.example.com')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    // `localhost` resolves to loopback: its port was checked with the URL.
    expect(await lookup('localhost')).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^127\.|^::1$/) })]),
    );
    // Without ownPort (webhook deliveries), loopback is reachable on every port, as before.
    expect(createReach().reachable(new URL('http://127.0.0.1:8081/'))).toBe(true);
  });
});

describe('webhook headers', () => {
  it('leaves out the names that route or frame a request, the hop-by-hop ones and what Connection lists', () => {
    expect(
      deliverableHeaders({
        Host: 'smuggled.example',
        'Content-Length': '5',
        'Transfer-Encoding': 'chunked',
        Upgrade: 'websocket',
        Connection: 'keep-alive, X-Listed',
        'x-listed': 'gone',
        'Keep-Alive': 'timeout=600',
        'Proxy-Authorization': 'Basic eA==',
        'proxy-connection': 'keep-alive',
        TE: 'trailers',
        Trailer: 'X-T',
        'X-Custom': 'kept',
        Authorization: 'Bearer receiver-token',
      }),
    ).toEqual({ 'X-Custom': 'kept', Authorization: 'Bearer receiver-token' });
  });

  it("a delivery carries its own Host and Content-Length and the caller's other headers, never the framing ones", async () => {
    const received: IncomingHttpHeaders[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve()))) });
    const at = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const { port } = await serve();
    const headers = {
      Host: 'smuggled.example',
      'Transfer-Encoding': 'chunked',
      'Content-Length': '5',
      Upgrade: 'websocket',
      'X-Custom': 'kept',
    };
    const started = await raw(
      port,
      'POST',
      '/v2/batch/scrape',
      { host: `127.0.0.1:${port}`, ...JSON_TYPE },
      JSON.stringify({ urls: ['https://example.com/'], webhook: { url: `http://${at}/hook`, headers, events: ['completed'] } }),
    );
    expect(started.status).toBe(200);
    // Node's own server refuses a request with both Transfer-Encoding and Content-Length before any handler sees it.
    await untilEnded(async () => ({ status: received.length === 0 ? 'scraping' : 'delivered' }), 'the completed delivery', {
      timeoutMs: TIMEOUT_MS,
    });
    expect(received[0]).toMatchObject({ host: at, 'x-custom': 'kept', 'content-type': 'application/json' });
    expect(received[0]).not.toHaveProperty('transfer-encoding');
    expect(received[0]).not.toHaveProperty('upgrade');
    expect(Number(received[0]!['content-length'])).toBeGreaterThan(5);
  });
});
