/**
 * The reference server as a contract kit target, in process on 127.0.0.1: on a port of its own, behind an
 * optional wrapper (a deviating variant) and a log of every request it got and what it answered. The kit's
 * jobs point at the server's own site (`<base>/site`), which has pages and a page that fails; the behaviour checks
 * crawl the kit's test site under BUILT_IN_SITE_HOST, which the server resolves to loopback.
 */
import { createReferenceApp, type AppRequest, type AppResponse, type ReferenceApp } from '../../scripts/server/app.js';
import { listen } from '../../scripts/server/http.js';
import { REFERENCE_SITE_PROFILE } from '../../scripts/server/site.js';
import type { ContractOptions } from '../../scripts/contract/index.js';
import { BUILT_IN_SITE_HOST, isSiteAddress, siteNamesOnLoopback } from '../../scripts/site/server.js';

export interface Logged {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly authorization: string | undefined;
  readonly status: number;
  readonly answer: string;
}

/** The secret the target signs its webhook deliveries with, and the kit is told (so that `vN.webhook.signature` runs). */
export const KIT_TARGET_WEBHOOK_SECRET = 'kit-target-webhook-secret';

export type Handler = (request: AppRequest, next: (request: AppRequest) => Promise<AppResponse>) => Promise<AppResponse>;

export interface KitTarget {
  readonly url: string;
  readonly log: Logged[];
  /** Options pointing the kit at this target and its site; `extra` wins. */
  options(extra?: Partial<ContractOptions>): ContractOptions;
  close(): Promise<void>;
}

/** The reference server wrapped by `wrap` (identity by default), logging what it gets. */
export async function kitTarget(options: {
  readonly token?: string | undefined;
  readonly wrap?: (app: ReferenceApp) => ReferenceApp;
  readonly deviate?: Handler;
  readonly pageIntervalMs?: number;
}): Promise<KitTarget> {
  let base = '';
  const token = options.token;
  const app = (options.wrap ?? ((a) => a))(
    createReferenceApp({
      auth: token === undefined ? 'none' : { token },
      publicUrl: () => base,
      pageIntervalMs: options.pageIntervalMs ?? 50,
      resolveHosts: siteNamesOnLoopback(BUILT_IN_SITE_HOST),
      allowFetchHost: isSiteAddress,
      webhookSecret: KIT_TARGET_WEBHOOK_SECRET,
    }),
  );
  const log: Logged[] = [];
  const next = (request: AppRequest) => app.handle(request);
  const recording: ReferenceApp = {
    ...(app.maxBodyBytes === undefined ? {} : { maxBodyBytes: app.maxBodyBytes }),
    async handle(request) {
      const answer = await (options.deviate ? options.deviate(request, next) : next(request));
      log.push({
        method: request.method,
        url: request.url,
        body: request.body,
        authorization: request.headers['authorization'],
        status: answer.status,
        answer: answer.body.length > 100_000 ? `${answer.body.slice(0, 100_000)}…` : answer.body,
      });
      return answer;
    },
    close: () => app.close(),
  };
  const server = await listen(recording, { host: '127.0.0.1', port: 0 });
  base = server.url;
  return {
    url: server.url,
    log,
    options: (extra = {}) => ({
      baseUrl: server.url,
      token,
      versions: ['v1', 'v2'],
      seed: 42,
      runs: 3,
      concurrency: 4,
      siteUrl: `${server.url}/site`,
      site: REFERENCE_SITE_PROFILE,
      webhookSecret: KIT_TARGET_WEBHOOK_SECRET,
      // The test site under a name the server resolves to loopback, as the built-in target of the command does
      // (served only for the behaviour checks: without them, a host name for it is a mistake the kit refuses).
      ...(extra.behaviour === false ? {} : { siteHost: BUILT_IN_SITE_HOST }),
      ...extra,
    }),
    async close() {
      await server.close();
      app.close();
    },
  };
}

const START = /^\/v[12]\/(crawl|batch\/scrape)$/;
const JOB = /^\/v[12]\/(?:crawl|batch\/scrape)\/([^/?]+)$/;

/** Ids of the jobs the server started (200 answers to a start), and ids the kit sent a DELETE for. */
export function startedAndCancelled(log: readonly Logged[]) {
  const started = log
    .filter((e) => e.method === 'POST' && START.test(e.url) && e.status === 200)
    .map((e) => (JSON.parse(e.answer) as { id: string }).id);
  const cancelled = log.filter((e) => e.method === 'DELETE').map((e) => JOB.exec(e.url)?.[1]);
  return { started, cancelled: new Set(cancelled) };
}

export const isStart = (e: Logged) => e.method === 'POST' && START.test(e.url);
