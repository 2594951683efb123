/**
 * Hostile sites for the attacks on what the reference server does after a page arrives (issue 22, findings
 * 1–6): HTTP servers on 127.0.0.1 (the server crawls loopback by default) whose pages, robots.txt and
 * silences are what the findings describe. The pages are built here, each by a function named for what it
 * holds; `test/crawlBounds.test.ts` uses the same sites and pages in the small.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HOST, type Closable } from './net.js';

/** What a site answers to a GET of a path (query included), or `'hang'`: never answer. */
export type Answer =
  | {
      readonly status?: number;
      readonly type?: string;
      readonly body: string;
      /** How the body's characters are sent: UTF-8 unless said (`latin1`: one byte a character, a binary file). */
      readonly encoding?: 'latin1';
    }
  | 'hang';

export interface HostileSite extends Closable {
  /** e.g. `http://127.0.0.1:40123`. */
  readonly origin: string;
  /** Requests answered or left hanging so far. */
  readonly requests: number;
  /** Requests it has left hanging that their client has not closed yet. */
  readonly hanging: number;
  /** Requests it left hanging that their client closed (gave up on). */
  readonly hangsClosed: number;
}

/** A site answering each GET with `route(path)`; `close` destroys every connection at once. */
export async function hostileSite(route: (path: string) => Answer): Promise<HostileSite> {
  const sockets = new Set<Socket>();
  let requests = 0;
  let hanging = 0;
  let hangsClosed = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    const answer = route(request.url ?? '/');
    if (answer === 'hang') {
      hanging += 1;
      request.socket.once('close', () => {
        hanging -= 1;
        hangsClosed += 1;
      });
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/html; charset=utf-8' });
    response.end(answer.body, answer.encoding ?? 'utf8');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  return {
    origin: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    get hanging() {
      return hanging;
    },
    get hangsClosed() {
      return hangsClosed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A page whose content is `html` (its `<main>`). */
export const page = (html: string, title = 'A hostile page'): Answer => ({
  body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><main>${html}</main></body></html>`,
});

const NOT_FOUND: Answer = { status: 404, body: 'not here' };

// ---------------------------------------------------------------------------------------------------------
// Finding 1: pages whose markdown was quadratic

/** One text node of `chars` digits in a paragraph (the finding: 120 KB held the server 11–16 s). */
export const digitsPage = (chars: number): Answer => page(`<p>${'1'.repeat(chars)}</p>`);

/** A list item of one word of `chars` characters (the list item's post-processing retried it lazily from every character). */
export const longWordItemPage = (chars: number): Answer => page(`<ul><li>${'x'.repeat(chars)}</li></ul>`);

/** A preformatted text of `count` line breaks in a table cell (the line-start escape scanned the run again from each). */
export const lineBreaksInCellPage = (count: number): Answer => page(`<table><tr><td><pre>${'\n'.repeat(count)}x</pre></td></tr></table>`);

/** A text page (`text/plain`) of `chars` ampersands (converted as one preformatted text, it took seconds per MiB). */
export const ampersandsText = (chars: number): Answer => ({ type: 'text/plain; charset=utf-8', body: '&'.repeat(chars) });

// ---------------------------------------------------------------------------------------------------------
// Finding 2: robots.txt whose matching is costly

/**
 * A robots.txt of wildcard rules costly to match against long paths: one rule of `bigRule` characters (the
 * finding's 300 KB rule, a run of `*`), then `rules` rules of `*a` pairs as long as a line may be (16,664
 * characters), none of which matches (they end in `b`): each is tried along the whole path of a link of
 * `a`s. `/` itself is allowed (the big rule, cut at the line bound, disallows every other path).
 */
export function costlyRobots(bigRule: number, rules: number): string {
  const lines = ['User-agent: *', 'Allow: /$', `Disallow: /${'*'.repeat(bigRule)}b`];
  for (let i = 0; i < rules; i++) lines.push(`Disallow: /${'*a'.repeat(8000)}b${i}`);
  return `${lines.join('\n')}\n`;
}

/** A page linking to `count` pages of the site whose paths are `length` characters of `a`. */
export const longPathLinksPage = (count: number, length: number): Answer =>
  page(
    Array.from({ length: count }, (_, i) => `<a href="/${String(i).padStart(4, '0')}${'a'.repeat(length - 5)}">link ${i}</a>`).join(' '),
  );

/** A site: robots.txt `robots`, `/` `start`, every other page a small page without links. */
export function robotsSite(robots: string, start: Answer): (path: string) => Answer {
  return (path) => {
    if (path === '/robots.txt') return { type: 'text/plain', body: robots };
    if (path === '/sitemap.xml') return NOT_FOUND;
    if (path === '/') return start;
    return page('<p>A page.</p>');
  };
}

// ---------------------------------------------------------------------------------------------------------
// Findings 3 and 5: link farms

/**
 * A link farm: `/` and every `/farm/<n>…` page link to `links` distinct pages of the farm, each path of
 * `length` characters (at least its number's); `disallowed` true: robots.txt disallows every farm page but
 * `/farm/<n>` itself, and each page first links to four of those (so pages are read, and their other links
 * blocked).
 */
export function linkFarm(links: number, length: number, disallowed: boolean): (path: string) => Answer {
  return (path) => {
    if (path === '/robots.txt')
      return { type: 'text/plain', body: disallowed ? 'User-agent: *\nDisallow: /farm/x\n' : 'User-agent: *\nAllow: /\n' };
    if (path === '/sitemap.xml') return NOT_FOUND;
    const n = Number(/^\/farm\/(?:x)?(\d+)/.exec(path)?.[1] ?? 0);
    const blocked = disallowed ? 'x' : '';
    const farmPath = (i: number): string => {
      const start = `/farm/${blocked}${n * links + i + 1}/`;
      return `${start}${'p'.repeat(Math.max(0, length - start.length))}`;
    };
    // With robots.txt disallowing the farm's links, a few links first lead on to pages that are read.
    const next = disallowed ? Array.from({ length: 4 }, (_, i) => `<a href="/farm/${n * 4 + i + 1}">next ${i}</a>`) : [];
    const farm = Array.from({ length: links }, (_, i) => `<a href="${farmPath(i)}">${i}</a>`);
    return page([...next, ...farm].join(''));
  };
}

// ---------------------------------------------------------------------------------------------------------
// Finding 4: many origins with large robots.txt

/** A robots.txt of `bytes` (about): short rules, as many as fit, under one user agent. */
export function largeRobots(bytes: number): string {
  const lines = ['User-agent: *'];
  for (let size = 0, i = 0; size < bytes; i++) {
    const line = `Disallow: /private/section-${i}/`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** The start of a crawl across origins: links to the start of each of `origins`. */
export const originsPage = (origins: readonly string[]): Answer => page(origins.map((o, i) => `<a href="${o}/">origin ${i}</a>`).join(' '));
