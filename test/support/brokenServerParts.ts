/**
 * What the broken variants of the reference server (test/support/brokenServers.ts and the files of variants it
 * gathers) are made of: a variant's shape (`BrokenServer`), the token their apps are created with, rewriting a
 * request before the real app sees it or an answer after, recognising a start, and the kit's checks and versions.
 */
import { checkNames } from '../../scripts/contract/index.js';
import type { AppRequest, AppResponse, ReferenceApp } from '../../scripts/server/app.js';
import { jsonObject, pathOf, type Json } from './appWrap.js';

/** The token the variants' apps are created with; the missing-auth variant injects it. */
export const BROKEN_SERVER_TOKEN = 'broken-server-token';

export interface BrokenServer {
  /** Short stable identifier, e.g. `invalidURLs.missingWhenIgnoring`. */
  readonly name: string;
  /** The one defect, in one sentence. */
  readonly defect: string;
  /** The level of what the defect breaks: the run that must catch it is made at this level. */
  readonly level: 'interface' | 'service';
  /** The kit checks that must fail against this variant; every other check must not (but see `mayAlsoFail`). */
  readonly expectedFailingChecks: readonly string[];
  /**
   * Checks that hold the same broken answer by their meaning too, but reach it only by chance: by timing (a
   * cancel answers 200 only while the job is still running, and against a fast target most jobs have ended,
   * 409, before the kit cancels them) or by the generator (a generated body that happens to hit the broken
   * case, depending on the seed). They may fail or pass; no check outside both lists may fail.
   */
  readonly mayAlsoFail?: readonly string[];
  wrap(app: ReferenceApp): ReferenceApp;
}

/** The answer with its JSON object body replaced by `edit(body)` (answers that are not JSON objects pass as they are). */
export function editAnswer(answer: AppResponse, edit: (body: Json) => Json): AppResponse {
  const body = jsonObject(answer.body);
  return body === undefined ? answer : { ...answer, body: JSON.stringify(edit(body)) };
}

/** The request with its JSON object body replaced by `edit(body)` (other bodies pass as they are). */
export function editRequest(request: AppRequest, edit: (body: Json) => Json): AppRequest {
  const body = jsonObject(request.body);
  return body === undefined ? request : { ...request, body: JSON.stringify(edit(body)) };
}

/** A start endpoint: `{ version, kind }` for `POST /v1|v2/crawl|batch/scrape`. */
export function startOf(request: AppRequest): { version: 'v1' | 'v2'; kind: 'crawl' | 'batch' } | undefined {
  if (request.method.toUpperCase() !== 'POST') return undefined;
  const m = /^\/(v1|v2)\/(crawl|batch\/scrape)$/.exec(pathOf(request));
  return m ? { version: m[1] as 'v1' | 'v2', kind: m[2] === 'crawl' ? 'crawl' : 'batch' } : undefined;
}

export const ALL_CHECKS = checkNames(['v1', 'v2']);
export const VERSIONS = ['v1', 'v2'] as const;
const KINDS = ['crawl', 'batch'] as const;
/** `vN.<kind>.<suffix>` for every version and kind. */
export const everyStart = (suffix: string): string[] => VERSIONS.flatMap((v) => KINDS.map((k) => `${v}.${k}.${suffix}`));
