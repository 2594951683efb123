/**
 * A proxy on 127.0.0.1 in front of a contract kit target that loses start connections, as a gateway or a
 * loaded machine may: the starts (POST /v1|v2/crawl, /v1|v2/batch/scrape) it is told to drop are passed on
 * to the target, which starts their job, and then the kit's connection is destroyed before the answer is
 * relayed. Which ones is decided by `drop`, from the start's number among the starts (1-based, in the order
 * they arrive) and its body: deterministic, no timing. Everything else is relayed as it is. It logs, in order,
 * every request it got (method, path, body) and what became of it, so that a test can tell what the kit sent
 * after a loss.
 */
import { request as httpRequest, createServer, type IncomingHttpHeaders } from 'node:http';

export interface ProxyEntry {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  /** The target's status; for a dropped start, the status it answered before the connection was destroyed. */
  readonly status: number;
  readonly answer: string;
  readonly dropped: boolean;
}

export interface DroppingProxy {
  readonly url: string;
  readonly log: readonly ProxyEntry[];
  close(): Promise<void>;
}

const START = /^\/v[12]\/(crawl|batch\/scrape)$/;
/** Headers that belong to one connection, not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'content-length',
]);

const passedOn = (headers: IncomingHttpHeaders): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string | string[]] => e[1] !== undefined && !HOP_BY_HOP.has(e[0])));

export async function droppingProxy(
  upstream: string,
  drop: (start: { n: number; path: string; body: string }) => boolean,
): Promise<DroppingProxy> {
  const target = new URL(upstream);
  const log: ProxyEntry[] = [];
  let starts = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const method = req.method ?? 'GET';
      const isStart = method === 'POST' && START.test(path.split('?')[0]!);
      const dropping = isStart && drop({ n: (starts += 1), path, body: body.toString('utf8') });
      const out = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: { ...passedOn(req.headers), 'content-length': String(body.length) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            log.push({
              method,
              path,
              body: body.toString('utf8'),
              status: answer.statusCode ?? 0,
              answer: text.toString('utf8'),
              dropped: dropping,
            });
            if (dropping) {
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, { ...passedOn(answer.headers), 'content-length': String(text.length) });
            res.end(text);
          });
        },
      );
      out.on('error', () => req.socket.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
