/** The scenario stage's server settings, and what its scenarios share. */
import type { InMemoryReferenceApp } from '../../server/app.js';

export const LIMIT = 64 * 1024;
/** What the adapter reads of a body before answering 413 itself (http.ts): the limit plus at least 1 MiB. */
export const READ_LIMIT = LIMIT + Math.max(LIMIT, 1024 * 1024);
export const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000, idleTimeoutMs: 2000 } as const;
/** The longest node waits between two checks of the headers and request timeouts (http.ts). */
export const CHECK_INTERVAL_MAX_MS = 1000;
/** Node 20 closes an idle keep-alive connection this long after the keep-alive timeout it advertises. */
export const NODE_KEEP_ALIVE_BUFFER_MS = 1000;
export const SLACK_MS = 1000;
export const PAGE_INTERVAL_MS = 10;
export const EXPIRY_TTL_MS = 1000;
/** The sweep interval app.ts uses for a TTL of 1 s. */
export const EXPIRY_SWEEP_MS = 1000;

export interface Context {
  readonly base: string;
  readonly port: number;
  readonly app: InMemoryReferenceApp;
  readonly duration: number;
  /** Every job a start answered for: status path, version, variant, most pages any poll saw. */
  readonly started: Map<string, { statusPath: string; version: 'v1' | 'v2'; variant: string; maxSeen: number }>;
  /** Pages each variant's job had on the idle server. */
  readonly reference: Map<string, number>;
}
