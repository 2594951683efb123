/**
 * A page opened in headless Chromium as a reader opens it (`--dump-dom` once its scripts ran), with what it asked
 * of the network: for the tests of the HTML pages (docs, docsCommand, contractHtml). Chromium is
 * found as test/support/chromium.ts says.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium } from './chromium.js';

/** CI sets CI (GitHub Actions, GitLab, .ci/run: `true`); `CI=false` or `CI=0` is not CI. */
const IN_CI = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI.toLowerCase());

/**
 * Chromium for a test file that opens pages in it (`what`: its render tests, e.g. "the docs render tests of
 * test/docs.test.ts"). Without Chromium they are skipped (`skip`), with a notice on stderr saying how to run them,
 * so that `npm test` passes on a fresh machine; in CI they run, and `path()` fails them saying why.
 */
export function browserForTests(what: string): { readonly skip: boolean; path(): string } {
  const lookup = findChromium();
  const skip = !lookup.found && !IN_CI;
  if (!lookup.found && skip)
    console.warn(`NOTICE: ${what} are SKIPPED: ${lookup.why}. To run them, ${lookup.fix}; in CI (CI set) they fail instead.`);
  return {
    skip,
    path: () => {
      if (lookup.found) return lookup.path;
      throw new Error(
        `Chromium not found (${lookup.why}): ${what} need it; ${lookup.fix}. In CI (CI=${process.env.CI}) they fail rather than skip.`,
      );
    },
  };
}

/** The text a reader sees in the Redoc part of a page (scripts, styles and markup left out). */
export function visibleText(html: string): string {
  const start = html.indexOf('<div id="redoc">');
  const end = html.indexOf('<script type="module">', start);
  return html
    .slice(start, end === -1 ? undefined : end)
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

export interface Rendered {
  /** The DOM after Redoc's script ran (`--dump-dom`). */
  dom: string;
  text: string;
  /** Addresses the page itself asked for over the network (from Chromium's net log). */
  requests: string[];
}

/**
 * Opens `file` (at `hash`) in headless Chromium and returns the DOM once the page settled. `marker`: what the DOM
 * must hold once rendered (else the render failed); by default Redoc's container. `width`: of the window, in pixels.
 */
export async function renderPage(
  chromium: string,
  file: string,
  hash = '',
  marker = '<div id="redoc">',
  width?: number,
): Promise<Rendered> {
  const profile = await mkdtemp(join(tmpdir(), 'crawlspec-chromium-'));
  const netLog = join(profile, 'net-log.json');
  const url = `${pathToFileURL(file).href}${hash}`;
  try {
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      `--log-net-log=${netLog}`,
      '--virtual-time-budget=10000',
      ...(width === undefined ? [] : [`--window-size=${width},900`]),
      '--dump-dom',
      url,
    ];
    const { code, stdout, stderr, timedOut } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
      timedOut: boolean;
    }>((resolve, reject) => {
      // Its own process group, so that on timeout the browser and every process it started are killed.
      const child = spawn(chromium, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, 60_000);
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut });
      });
    });
    if (timedOut || code !== 0 || !stdout.includes(marker))
      throw new Error(
        `chromium ${timedOut ? 'timed out after 60 s' : `exited with ${code}`} on ${url}:\n${stderr.split('\n').slice(-15).join('\n')}`,
      );
    return { dom: stdout, text: visibleText(stdout), requests: pageRequests(JSON.parse(await readFile(netLog, 'utf8'))) };
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: { type: number; params?: { url?: string; initiator?: string; network_isolation_key?: string } }[];
}

/** http(s) requests started for the page; the browser's own (update checks and such) have no origin. */
function pageRequests(log: NetLog): string[] {
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  return log.events
    .filter((e) => e.type === start && /^https?:/.test(e.params?.url ?? ''))
    .filter((e) => e.params?.initiator !== 'not an origin' || (e.params?.network_isolation_key ?? '').includes('file://'))
    .map((e) => e.params?.url ?? '');
}
