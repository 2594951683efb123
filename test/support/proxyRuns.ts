/**
 * What the validating proxy's test files (test/proxy*.test.ts) share: the token, a proxy started in front of a
 * target that collects what it reports (`proxyFor`), a JSON POST, a loopback port nothing listens on, and waiting
 * until the proxy has reported an answer the client already has.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Violation } from '../../scripts/proxy/exchangeChecks.js';
import type { ExchangeRecord } from '../../scripts/proxy/exchanges.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../scripts/proxy/proxy.js';

export const TOKEN = 'proxy-test-token-0123456789';

interface Seen {
  readonly violation: Violation;
  readonly refused: boolean;
}

/** A proxy in front of `target`, collecting what it reports. */
export async function proxyFor(
  target: string,
  extra: Partial<ProxyOptions> = {},
): Promise<{ proxy: RunningProxy; seen: Seen[]; notices: string[]; records: ExchangeRecord[] }> {
  const seen: Seen[] = [];
  const notices: string[] = [];
  const records: ExchangeRecord[] = [];
  const proxy = await startProxy({
    target,
    level: 'interface',
    errors: false,
    onViolation: (violation, refused) => seen.push({ violation, refused }),
    onExchange: (record) => records.push(record),
    onNotice: (line) => notices.push(line),
    ...extra,
  });
  return { proxy, seen, notices, records };
}

export const post = (base: string, path: string, body: string) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });

/** A loopback port nothing listens on (one the system gave, then let go). */
export async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
}

/** Until `check` holds: the proxy reports an answer after the client has it. */
export async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}
