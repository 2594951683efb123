/**
 * Wrappers of the reference server (kitTarget's `deviate`) that stand for a deployment that cannot use the kit's
 * site: one refuses every start body naming a loopback address (an SSRF guard, a rule against IP hosts, as a
 * self-hosted implementation has), one accepts them but cannot fetch the pages (a crawler in a container,
 * whose loopback is not the kit's); and two whose fault is not the site: one refuses every start whatever its
 * site, one shows no page record of any job.
 */
import { createServer } from 'node:net';
import type { AppRequest, AppResponse } from '../../scripts/server/app.js';
import { BUILT_IN_SITE_HOST, siteNamesOnLoopback } from '../../scripts/site/server.js';
import type { Handler } from './kitTarget.js';

const START = /^\/v[12]\/(crawl|batch\/scrape)$/;

/** The host names kitTarget's server resolves to loopback (the test site under BUILT_IN_SITE_HOST), and localhost. */
const LOOPBACK_NAMES = new Set(['localhost', ...Object.keys(siteNamesOnLoopback(BUILT_IN_SITE_HOST))]);

/** Whether `url` is an address on loopback: 127.x, ::1, localhost, or a name the server resolves there. */
export function namesLoopback(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return LOOPBACK_NAMES.has(host) || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** The addresses a start body names (`url`, `urls`), or undefined when it is not a JSON object. */
function startUrls(request: AppRequest): unknown[] | undefined {
  if (request.method !== 'POST' || !START.test(request.url)) return undefined;
  try {
    const body = JSON.parse(request.body) as { url?: unknown; urls?: unknown } | null;
    if (typeof body !== 'object' || body === null) return undefined;
    return [body.url, ...(Array.isArray(body.urls) ? body.urls : [])];
  } catch {
    return undefined;
  }
}

const refusal = (error: string): AppResponse => ({
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ success: false, code: 'BAD_REQUEST', error }),
});

/** Every start body naming a loopback address is refused: 400 with the error envelope. */
export const refuseLoopback: Handler = async (request, next) =>
  startUrls(request)?.some(namesLoopback) === true
    ? refusal('URL is not allowed: it resolves to a private or loopback address')
    : next(request);

/** Every start body is refused, whatever it names. */
export const refuseEveryStart: Handler = async (request, next) =>
  startUrls(request) !== undefined ? refusal('Bad Request: this deployment accepts no jobs') : next(request);

/** Every job status shows no page record, whatever the job crawled: a target that shows no page of any site. */
export const noPageRecords: Handler = async (request, next) => {
  const answer = await next(request);
  if (request.method !== 'GET' || !/^\/v[12]\/(crawl|batch\/scrape)\/[^/?]+(\?|$)/.test(request.url) || answer.status !== 200)
    return answer;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  return { ...answer, body: JSON.stringify({ ...body, data: [], next: null }) };
};

/** A port of 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Start bodies are accepted, but each loopback address in them is fetched at `port`, where nothing listens: the
 * target cannot reach the site, as a crawler whose loopback is not the kit's.
 */
export function unreachableLoopback(port: number): Handler {
  const elsewhere = (url: unknown) => {
    if (!namesLoopback(url)) return url;
    const moved = new URL(url as string);
    moved.port = String(port);
    return moved.href;
  };
  return async (request, next) => {
    if (startUrls(request)?.some(namesLoopback) !== true) return next(request);
    const body = JSON.parse(request.body) as { url?: unknown; urls?: unknown[] };
    const moved = {
      ...body,
      ...(body.url === undefined ? {} : { url: elsewhere(body.url) }),
      ...(Array.isArray(body.urls) ? { urls: body.urls.map(elsewhere) } : {}),
    };
    return next({ ...request, body: JSON.stringify(moved) });
  };
}
