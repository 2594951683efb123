/**
 * The attacks of issue 22 ("Hardening, round three") on what one request may make the server do: findings 7 (a
 * server a web page can drive: any Host, a text/plain start, any loopback port crawled), 9 (JSON Schemas that
 * cost seconds to compile) and 13 (webhook headers that frame the request the server sends). Each replays the
 * finding against a fresh `crawlspec serve`; the harness holds it to the usual bounds (memory, the unrelated
 * request, alive afterwards), and each attack checks what its finding is about.
 */
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { MAX_SCHEMA_PATTERNS, MAX_SCHEMA_VALUES } from '../../../schemas/codeRules/jsonSchemaSize.js';
import { validate } from '../../../schemas/validate.js';
import { parsed, valid } from '../shared.js';
import { REFUSAL_MS, RSS_SMALL_MIB, UNRELATED_LATENCY_MS } from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { call, HOST, outcome, type Answer, type Closable } from './net.js';

const round = (n: number): number => Math.round(n);

/** A loopback service that is nobody's business: every GET is answered with a page holding `secret`, and counted. */
async function secretService(secret: string): Promise<Closable & { readonly url: string; readonly asked: () => number }> {
  let asked = 0;
  const server = createHttpServer((request, response) => {
    asked += 1;
    request.resume();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>${secret}</title><p>${secret}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    asked: () => asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One request over node:http with the headers given as they are (`host` included: fetch would not send another). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(
      {
        host: HOST,
        port,
        method,
        path,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
        );
        response.on('error', (error) => resolve({ status: undefined, text: '', ms: performance.now() - started, error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 10000 ms')));
    request.on('error', (error) => resolve({ status: undefined, text: '', ms: performance.now() - started, error: error.message }));
    request.end(body);
  });
}

/** Whether an answer is a refusal with one of `statuses` and the error envelope `{success: false, error}`. */
const refusedWith = (answer: Answer, statuses: readonly number[]): boolean => {
  const body = parsed(answer.text) as { success?: unknown; error?: unknown } | undefined;
  return answer.status !== undefined && statuses.includes(answer.status) && body?.success === false && typeof body.error === 'string';
};

/** A v2 batch job's status once it has ended (10 s at most), or what the last read said. */
async function endedBatch(ctx: AttackContext, id: string): Promise<{ readonly ended: boolean; readonly text: string }> {
  const until = performance.now() + 10_000;
  let text = '';
  while (performance.now() < until && !ctx.signal.aborted) {
    const read = await call(ctx.base, 'GET', `/v2/batch/scrape/${id}`, { timeoutMs: 5_000 });
    text = read.text;
    const status = (parsed(text) as { status?: unknown } | undefined)?.status;
    if (read.status === 200 && status !== 'scraping') return { ended: true, text };
    await ctx.sleep(50);
  }
  return { ended: false, text };
}

const SECRET = 'crawlspec-secret-7f3a9c';

const attack7: Attack = {
  id: '22-7',
  title: 'a web page driving `serve --no-auth`: a start naming another Host, a text/plain start, a crawl of another loopback port',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 45_000,
  // As the finding ran it: no token, the default address (127.0.0.1), no --allow-host.
  serve: ['--no-auth'],
  prepare() {
    return {
      async run(ctx) {
        const service = await secretService(SECRET);
        ctx.defer(service);
        const body = JSON.stringify({ urls: [`${service.url}/secret`] });
        const ownHost = `${HOST}:${ctx.port}`;
        const leaked = async (answer: Answer): Promise<string> => {
          // A start that was accepted: what its job read (the page record would hold the secret).
          const id = (parsed(answer.text) as { id?: unknown } | undefined)?.id;
          if (answer.status !== 200 || typeof id !== 'string') return '';
          const { text } = await endedBatch(ctx, id);
          return text.includes(SECRET) ? '; its job read the secret' : '';
        };

        // DNS rebinding: the browser sends the attacker's name as Host; so does a start it is made to send.
        const rebound = await rawRequest(
          ctx.port,
          'POST',
          '/v2/batch/scrape',
          { host: 'attacker.example', 'content-type': 'application/json' },
          body,
        );
        ctx.answered(rebound);
        const reboundRead = await rawRequest(ctx.port, 'GET', '/v2/crawl/active', { host: `attacker.example:${ctx.port}` });
        ctx.answered(reboundRead);
        ctx.check(
          'requests naming another Host (a start, a read) are refused (421 or 400 with {success: false, error})',
          refusedWith(rebound, [421, 400]) && refusedWith(reboundRead, [421, 400]),
          `start: ${outcome(rebound)} ${rebound.text.slice(0, 120)}${await leaked(rebound)}; read: ${outcome(reboundRead)} ${reboundRead.text.slice(0, 80)}`,
        );

        // A form or a fetch without CORS may send text/plain (or no type at all) with no preflight.
        const plain = await rawRequest(ctx.port, 'POST', '/v2/batch/scrape', { host: ownHost, 'content-type': 'text/plain' }, body);
        ctx.answered(plain);
        const untyped = await rawRequest(
          ctx.port,
          'POST',
          '/v1/crawl',
          { host: ownHost },
          JSON.stringify({ url: `${service.url}/secret` }),
        );
        ctx.answered(untyped);
        ctx.check(
          'starts without Content-Type: application/json (text/plain, none) are refused (415 with {success: false, error})',
          refusedWith(plain, [415]) && refusedWith(untyped, [415]),
          `text/plain: ${outcome(plain)} ${plain.text.slice(0, 120)}${await leaked(plain)}; none: ${outcome(untyped)} ${untyped.text.slice(0, 80)}`,
        );

        // A well-formed start: its job may not read another loopback port without --allow-host.
        const proper = await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 10_000 });
        ctx.answered(proper);
        const id = (parsed(proper.text) as { id?: unknown } | undefined)?.id;
        const job = typeof id === 'string' ? await endedBatch(ctx, id) : undefined;
        ctx.check(
          'a well-formed start of a page on another loopback port is accepted (200) and its job ends',
          proper.status === 200 && job?.ended === true,
          `${outcome(proper)} ${proper.text.slice(0, 120)}${job === undefined ? '' : job.ended ? '; ended' : '; still running after 10 s'}`,
        );
        ctx.note('requests the loopback service got', service.asked());
        ctx.check(
          'the loopback service on another port got no request, and no page record holds its secret',
          service.asked() === 0 && job?.text.includes(SECRET) === false,
          `${service.asked()} requests; the job's record ${job?.text.includes(SECRET) ? 'holds the secret' : 'does not hold it'}`,
        );
      },
    };
  },
};

/** Webhook headers that frame or route a request, sent by the caller; none may reach the receiver. */
const FRAMING_HEADERS: Readonly<Record<string, string>> = {
  Host: 'smuggled.example',
  Upgrade: 'websocket',
  'Transfer-Encoding': 'chunked',
  'Content-Length': '5',
  Connection: 'keep-alive, X-Listed',
  'X-Listed': 'named by Connection',
  'Keep-Alive': 'timeout=600',
  'Proxy-Authorization': 'Basic c21ndWdnbGVk',
  'Proxy-Connection': 'keep-alive',
  TE: 'trailers',
  Trailer: 'X-Trailing',
};
const KEPT_HEADER = ['X-Custom', 'kept'] as const;

/** The head of one request a raw receiver read: its lines after the request line, lower-cased names. */
type Head = readonly (readonly [string, string])[];

/**
 * A webhook receiver that reads each request's head as it arrives on the wire (node's own server would refuse
 * a request with both Transfer-Encoding and Content-Length before any handler saw it), answers 200 and closes.
 */
async function rawReceiver(): Promise<Closable & { readonly url: string; readonly heads: Head[] }> {
  const heads: Head[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let read = false;
    socket.on('data', (chunk: Buffer) => {
      if (read) return; // the body: not needed
      buffer += chunk.toString('latin1');
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      read = true;
      const lines = buffer.slice(0, end).split('\r\n').slice(1);
      heads.push(
        lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const),
      );
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    heads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const attack13: Attack = {
  id: '22-13',
  title: 'webhook headers naming Host, Upgrade, Transfer-Encoding, Content-Length and other hop-by-hop fields',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 30_000,
  prepare() {
    return {
      async run(ctx) {
        const receiver = await rawReceiver();
        ctx.defer(receiver);
        const headers = { ...FRAMING_HEADERS, [KEPT_HEADER[0]]: KEPT_HEADER[1] };
        const body = JSON.stringify({ urls: ['https://example.com/webhook-headers'], webhook: { url: `${receiver.url}/hook`, headers } });
        const started = await call(ctx.base, 'POST', '/v2/batch/scrape', { body, timeoutMs: 10_000 });
        ctx.answered(started);
        ctx.check('the batch with the webhook started (200)', started.status === 200, `${outcome(started)} ${started.text.slice(0, 120)}`);
        // started, page, completed: three deliveries, 5 s at most.
        const until = performance.now() + 5_000;
        while (receiver.heads.length < 3 && performance.now() < until && !ctx.signal.aborted) await ctx.sleep(50);
        const host = new URL(receiver.url).host;
        const wrong: string[] = [];
        // Node writes its own Host (the receiver's), Content-Length (the payload's) and Connection (close): exactly
        // one of each, never the caller's; none of the caller's other framing or hop-by-hop names.
        const own: Readonly<Record<string, (value: string) => boolean>> = {
          host: (value) => value === host,
          'content-length': (value) => /^\d+$/.test(value) && value !== FRAMING_HEADERS['Content-Length'],
          connection: (value) => value === 'close',
        };
        for (const head of receiver.heads) {
          const named = (name: string) => head.filter(([n]) => n === name).map(([, v]) => v);
          for (const name of Object.keys(FRAMING_HEADERS).map((n) => n.toLowerCase())) {
            const values = named(name);
            const fine = own[name] === undefined ? values.length === 0 : values.length === 1 && own[name](values[0]!);
            if (!fine) wrong.push(`${name}: ${values.join(' | ') || '(none)'}`);
          }
          if (named(KEPT_HEADER[0].toLowerCase()).join() !== KEPT_HEADER[1]) wrong.push(`${KEPT_HEADER[0]} missing`);
        }
        ctx.note('deliveries read', receiver.heads.length);
        ctx.check(
          'the receiver got the three deliveries (started, page, completed)',
          receiver.heads.length >= 3,
          `${receiver.heads.length}`,
        );
        ctx.check(
          "no delivery carried the caller's framing or hop-by-hop headers (its own Host, Content-Length and Connection only), and X-Custom was kept",
          receiver.heads.length > 0 && wrong.length === 0,
          wrong.length === 0 ? 'none' : [...new Set(wrong)].slice(0, 8).join('; '),
        );
      },
    };
  },
};

/** An object schema of `count` patternProperties, each a string schema, its patterns tagged with `tag`. */
const patternSchema = (count: number, tag: string) => ({
  type: 'object',
  patternProperties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`^${tag}${i}_[a-z]+$`, { type: 'string' }])),
});

/**
 * 9: a v1 crawl whose three JSON Schemas (jsonOptions, extract, changeTrackingOptions) hold `count`
 * patternProperties each, every body's patterns its own (a verdict kept for one body does not answer another).
 */
const patternCrawl = (count: number, tag: string): string =>
  JSON.stringify({
    url: 'https://example.com/',
    limit: 1,
    scrapeOptions: {
      formats: ['markdown', 'json', 'extract', 'changeTracking'],
      jsonOptions: { schema: patternSchema(count, `j${tag}`) },
      extract: { schema: patternSchema(count, `e${tag}`) },
      changeTrackingOptions: { modes: ['json'], schema: patternSchema(count, `c${tag}`) },
    },
  });

/** 9, as bad in one schema: a definition of `size` properties `$ref`erenced `refs` times, which Ajv inlines at each reference. */
const refCrawl = (size: number, refs: number, tag: string): string =>
  JSON.stringify({
    url: 'https://example.com/',
    limit: 1,
    scrapeOptions: {
      formats: ['json'],
      jsonOptions: {
        schema: {
          definitions: {
            item: {
              type: 'object',
              properties: Object.fromEntries(Array.from({ length: size }, (_, i) => [`${tag}${i}`, { type: 'string' }])),
            },
          },
          type: 'object',
          properties: Object.fromEntries(Array.from({ length: refs }, (_, i) => [`r${i}`, { $ref: '#/definitions/item' }])),
        },
      },
    },
  });

/**
 * 9, within the bounds: a v1 crawl of one schema as costly to compile as the validators' bounds allow (the costliest
 * construct found: `false` subschemas, here `patternProperties` and `anyOf`), its patterns tagged with `tag`.
 */
const boundedCrawl = (tag: string): string =>
  JSON.stringify({
    url: 'https://example.com/',
    limit: 1,
    scrapeOptions: {
      formats: ['json'],
      jsonOptions: {
        schema: {
          patternProperties: Object.fromEntries(Array.from({ length: MAX_SCHEMA_PATTERNS }, (_, i) => [`^${tag}${i}$`, false])),
          anyOf: Array.from({ length: MAX_SCHEMA_VALUES - 2 * MAX_SCHEMA_PATTERNS - 5 }, () => false),
        },
      },
    },
  });

/** A body's answer: 200, or a 400 with the v1 error body; for the detail, what it said and how long it took. */
const judged = (answer: Answer): { readonly ok: boolean; readonly said: string } => {
  const body = parsed(answer.text) as { details?: { message?: string }[]; error?: string } | undefined;
  const ok = answer.status === 200 || (answer.status === 400 && valid('v1/ErrorResponse', body));
  return {
    ok,
    said: `${outcome(answer)} in ${round(answer.ms)} ms${answer.status === 400 ? `: ${String(body?.details?.[0]?.message ?? body?.error ?? '').slice(0, 90)}` : ''}`,
  };
};

const attack9: Attack = {
  id: '22-9',
  title:
    'five v1 crawls at once, each with three JSON Schemas of 900 patternProperties; five at once as costly as the bounds allow; one whose $refs Ajv would inline',
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 90_000,
  prepare() {
    const stamp = Date.now().toString(36);
    const patterns = Array.from({ length: 5 }, (_, i) => patternCrawl(900, `${stamp}${i}`));
    const refs = refCrawl(300, 300, `p${stamp}`);
    const bounded = Array.from({ length: 5 }, (_, i) => boundedCrawl(`b${stamp}${i}`));
    // What judging one body of each kind costs here, with the validators this load generator runs (the server's).
    const cost = (text: string) => {
      const started = performance.now();
      validate('v1/CrawlRequest', JSON.parse(text));
      return round(performance.now() - started);
    };
    return {
      notes: {
        bodies: `five of ${(patterns[0]!.length / 1e3).toFixed(0)} KB (3 × 900 patternProperties), one of ${(refs.length / 1e3).toFixed(0)} KB (300 $refs to a 300-property definition)`,
        'body at the bounds valid by validate()': String(validate('v1/CrawlRequest', JSON.parse(bounded[0]!)).valid),
        'validate() of a like body in the load generator (ms)': `patterns ${cost(patternCrawl(900, `x${stamp}`))}, at the bounds ${cost(boundedCrawl(`y${stamp}`))}, refs ${cost(refCrawl(300, 300, `q${stamp}`))}`,
      },
      async run(ctx) {
        const answers = await Promise.all(patterns.map((body) => call(ctx.base, 'POST', '/v1/crawl', { body, timeoutMs: 60_000 })));
        for (const answer of answers) ctx.answered(answer);
        const verdicts = answers.map(judged);
        ctx.check(
          `every pattern body answered 200, or 400 with the v1 error body, each within ${REFUSAL_MS} ms of the five being sent`,
          verdicts.every((v) => v.ok) && answers.every((a) => a.ms <= REFUSAL_MS),
          verdicts.map((v) => v.said).join('; '),
        );
        const atBounds = await Promise.all(bounded.map((body) => call(ctx.base, 'POST', '/v1/crawl', { body, timeoutMs: 60_000 })));
        for (const answer of atBounds) ctx.answered(answer);
        ctx.check(
          `every body at the bounds answered 200 (it is valid), each within ${REFUSAL_MS} ms of the five being sent`,
          atBounds.every((a) => a.status === 200 && a.ms <= REFUSAL_MS),
          atBounds.map((a) => judged(a).said).join('; '),
        );
        const ref = await call(ctx.base, 'POST', '/v1/crawl', { body: refs, timeoutMs: 60_000 });
        ctx.answered(ref);
        const refVerdict = judged(ref);
        ctx.check(
          `the $ref body answered 200, or 400 with the v1 error body, within ${REFUSAL_MS} ms`,
          refVerdict.ok && ref.ms <= REFUSAL_MS,
          refVerdict.said,
        );
      },
    };
  },
};

export const SURFACE_ATTACKS: readonly Attack[] = [attack7, attack9, attack13];
