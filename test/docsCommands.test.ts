/**
 * Every command the documentation shows still runs, and says what the page says it says.
 *
 *   - Every `sh` block of README.md and docs/*.md: each command is run by bash, the commands of a page in
 *     order in a scratch folder of their own that links to the repository's files (so what they write stays
 *     there), with `npx crawlspec` running the command from the test run's build of its sources. The `# ` lines after a command are
 *     what it prints: each must appear in its output, in that order (`...` stands for any text). It must exit
 *     0, or N when its comment says `(exit N)`.
 *   - A trailing comment marks the few that cannot run as they are (docs/development.md tells them):
 *     `(until Ctrl-C)` is started and stopped with SIGINT, exit 0; `(your implementation)` runs against a
 *     reference server started here in place of the address given; `(CI runs this)` must be a command of
 *     .ci/run; `(run by test/NAME.test.ts)` must be a script that test runs. A contract run is narrowed to
 *     one check (`--only json.malformed`, or a check that starts no job under `--only-no-job`; a replay,
 *     `contract replay`, is not a run and runs as written);
 *     `npm ci` is skipped (this runs in an installed tree). A `--port N` (N from 1 to 65535) is run with a free
 *     port P in its place, picked here, and `:N` in the command's expected lines reads `:P`: the page shows what
 *     users type (3002, the self-hosted service's own default port), which may be in use on this machine.
 *   - Every `ts` block: compiled by tsc against the package as a consumer imports it (`crawlspec`, through
 *     its exports map, from a scratch project), then run; its `// → ` lines are what it prints.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceApp } from '../scripts/server/app.js';
import { listen } from '../scripts/server/http.js';
import { isSiteAddress } from '../scripts/site/server.js';
import { builtCli } from './support/build.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = import.meta.resolve('tsx');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
/** The one check a contract run is narrowed to: quick, and run whatever the options. */
const ONE_CHECK = 'json.malformed';
/** The one check a run with `--only-no-job` is narrowed to (json.malformed starts a job): the service's, it starts none. */
const ONE_NO_JOB_CHECK = 'v2.status.undocumentedStatus';
const COMMAND_TIMEOUT_MS = 90_000;
/**
 * How long a command run until Ctrl-C may take to print its first line before it is killed: a safety net for a
 * command that never prints, far past what a slow, loaded machine needs to start one.
 */
const FIRST_LINE_CEILING_MS = 120_000;

interface Command {
  readonly page: string;
  /** 1-based line in the page. */
  readonly line: number;
  readonly text: string;
  readonly comment: string;
  /** What the page says it prints, in order. */
  readonly expected: string[];
}

/** The fenced blocks of `language` in `markdown`, each with the page line of its first line (indentation removed). */
function blocks(markdown: string, language: string): { line: number; lines: string[] }[] {
  const found: { line: number; lines: string[] }[] = [];
  const all = markdown.split('\n');
  for (let i = 0; i < all.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(all[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < all.length && !/^\s*```\s*$/.test(all[end]!)) end++;
    if (open[2] === language) found.push({ line: i + 2, lines: all.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.search(/\S|$/)))) });
    i = end;
  }
  return found;
}

/** `text` split at its trailing comment: the first `#` outside quotes that follows a space. */
function splitComment(text: string): [string, string] {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return [text.slice(0, i).trimEnd(), text.slice(i + 1).trim()];
  }
  return [text.trimEnd(), ''];
}

function commandsOf(page: string): Command[] {
  const commands: (Command & { expected: string[] })[] = [];
  for (const block of blocks(readFileSync(join(ROOT, page), 'utf8'), 'sh')) {
    let last: (Command & { expected: string[] }) | undefined;
    block.lines.forEach((raw, i) => {
      if (raw.trim() === '') return;
      if (raw.startsWith('#')) {
        if (last !== undefined && raw.startsWith('# ')) last.expected.push(raw.slice(2));
        return;
      }
      const [text, comment] = splitComment(raw);
      last = { page, line: block.line + i, text, comment, expected: [] };
      commands.push(last);
    });
  }
  return commands;
}

const COMMANDS = new Map(PAGES.map((page) => [page, commandsOf(page)]));

/** An expected line as a pattern: `...` stands for any text; the rest is literal; leading spaces aside. */
const linePattern = (expected: string) =>
  new RegExp(`^${expected.trim().split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** The expected lines found, in order, among the lines of `output`; the first one missing, if any. */
function missingLine(output: string, expected: readonly string[]): string | undefined {
  const lines = output.split('\n').map((l) => l.trim());
  let from = 0;
  for (const want of expected) {
    const pattern = linePattern(want);
    const at = lines.findIndex((l, i) => i >= from && pattern.test(l));
    if (at === -1) return want;
    from = at + 1;
  }
  return undefined;
}

const exitOf = (comment: string) => Number(/\(exit (\d+)\)/.exec(comment)?.[1] ?? 0);

/**
 * bash functions standing in for `npx crawlspec` (the sources compiled for the test run, test/support/build.ts), a contract run narrowed to one
 * check (`npm start` too: the package's own script, on the build), and `npm ci` (skipped).
 */
const SHIMS = String.raw`
crawlspec_cli() {
  if [ "$1" = contract ] && [ "$2" != replay ] && [[ " $* " != *" --list-checks "* && " $* " != *" --help "* ]]; then
    if [[ " $* " == *" --only-no-job "* ]]; then set -- "$@" --only ${ONE_NO_JOB_CHECK}; else set -- "$@" --only ${ONE_CHECK}; fi
  fi
  node "$CRAWLSPEC_CLI" "$@"
}
npx() { if [ "$1" = crawlspec ]; then shift; crawlspec_cli "$@"; else command npx "$@"; fi; }
npm() {
  case "$1" in
    ci) echo "(npm ci skipped: the tests run in an installed tree)";;
    start) shift; command npm start --silent -- "$@" --only ${ONE_CHECK};;
    *) command npm "$@";;
  esac
}
`;

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${SHIMS}\n${script}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: COMMAND_TIMEOUT_MS });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Runs `script` until it prints a line, then sends its process group SIGINT: what it printed and how it ended
 * (killed, with nothing printed, if no line came within `FIRST_LINE_CEILING_MS`).
 */
function untilCtrlC(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run & { firstLine: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${SHIMS}\n${script}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let firstLine = '';
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), FIRST_LINE_CEILING_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (firstLine === '' && output.includes('\n')) {
        firstLine = output.slice(0, output.indexOf('\n'));
        process.kill(-child.pid!, 'SIGINT');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, firstLine });
    });
  });
}

/** A port free on 127.0.0.1 now: the one the system gives a listener on port 0, closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `command` with a free port in place of each `--port N` it gives (N from 1 to 65535: 0 is any free port already,
 * and a number past 65535 is a usage error, run as written), and `:N` in its expected lines read as that port.
 */
async function withFreePorts(command: Command): Promise<Command> {
  let { text, expected } = command;
  for (const [option, given] of [...command.text.matchAll(/--port[= ](\d+)\b/g)].map((m) => [m[0], Number(m[1])] as const)) {
    if (given < 1 || given > 65535) continue;
    const port = await freePort();
    text = text.replace(option, option.replace(String(given), String(port)));
    expected = expected.map((line) => line.replace(new RegExp(`:${given}\\b`, 'g'), `:${port}`));
  }
  return { ...command, text, expected };
}

let scratch: string;
let standIn: { url: string; close(): Promise<void> };
let closeApp: () => void;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlspec-docs-'));
  // An implementation that crawls the kit's test site wherever the kit serves it (a reference server fetches from
  // no other loopback port unless allowed: `crawlspec serve --allow-host 127.0.0.1 --allow-host 127.0.0.2`).
  const app = createReferenceApp({ auth: 'none', publicUrl: () => standIn.url, allowFetchHost: isSiteAddress });
  standIn = await listen(app);
  closeApp = () => app.close();
});
afterAll(async () => {
  await standIn?.close();
  closeApp?.();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A folder for a page's commands, linking to every file of the repository but .git. */
async function pageFolder(page: string): Promise<string> {
  const dir = join(scratch, page.replace(/[^a-z0-9]+/gi, '-'));
  await mkdir(dir);
  for (const name of await readdir(ROOT)) if (name !== '.git') await symlink(join(ROOT, name), join(dir, name));
  return dir;
}

const CI_RUN = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
  .split('\n')
  .map((l) => l.replace(/--silent /g, '').replace(/\s+/g, ' ').trim());

async function check(asWritten: Command, cwd: string): Promise<void> {
  const command = await withFreePorts(asWritten);
  const where = `${command.page}:${command.line}: ${asWritten.text}`;
  const { CRAWLSPEC_TOKEN: _token, ...outside } = process.env;
  const env = { ...outside, NO_COLOR: '1', FORCE_COLOR: '0', CRAWLSPEC_CLI: builtCli(), TOKEN: 'a-token-for-the-docs' };
  if (command.comment.includes('(CI runs this)')) {
    const normal = asWritten.text.replace(/--silent /g, '').replace(/\s+/g, ' ').trim();
    expect(
      CI_RUN.some((line) => line === normal || line.startsWith(`${normal} `)),
      `${where}: said to be run by CI, but .ci/run has no such line`,
    ).toBe(true);
    return;
  }
  const delegated = /\(run by (test\/[\w.]+\.test\.ts)\)/.exec(command.comment)?.[1];
  if (delegated !== undefined) {
    const script = /^npm run (\S+)/.exec(command.text)?.[1];
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const file = script === undefined ? undefined : /\b(scripts\/\S+\.ts)\b/.exec(scripts[script] ?? '')?.[1];
    expect(file, `${where}: not an npm script running a file of scripts/`).toBeDefined();
    expect(readFileSync(join(ROOT, delegated), 'utf8'), `${where}: ${delegated} does not run ${file}`).toContain(file);
    return;
  }
  let text = command.text;
  if (command.comment.includes('(your implementation)')) {
    expect(text, `${where}: no --base-url to stand in for`).toMatch(/--base-url \S+/);
    text = text.replace(/--base-url \S+/, `--base-url ${standIn.url}`);
  }
  if (command.comment.includes('(until Ctrl-C)')) {
    // The process itself, not a shell around it, gets the SIGINT, as from a terminal.
    expect(text, `${where}: only npx crawlspec runs until Ctrl-C here`).toMatch(/^npx crawlspec /);
    const run = await untilCtrlC(text.replace(/^npx crawlspec /, 'exec node "$CRAWLSPEC_CLI" '), cwd, env);
    const silent = `${where}: printed nothing within ${FIRST_LINE_CEILING_MS / 1000} s, so it was killed`;
    expect(run.firstLine, `${silent}\n${run.output}`).not.toBe('');
    expect(run.code, `${where}: after Ctrl-C\n${run.output}`).toBe(0);
    expect(missingLine(run.output, command.expected), `${where}: not printed\n${run.output}`).toBeUndefined();
    return;
  }
  const run = await bash(text, cwd, env);
  expect(run.code, `${where}\n${run.output}`).toBe(exitOf(command.comment));
  expect(missingLine(run.output, command.expected), `${where}: not printed\n${run.output}`).toBeUndefined();
}

describe('the commands of the documentation', () => {
  it('every page has commands to run, and the markers are the known ones', () => {
    expect([...COMMANDS.values()].flat().length).toBeGreaterThan(30);
    for (const page of ['README.md', 'docs/validation.md', 'docs/contract-kit.md', 'docs/command.md'])
      expect(COMMANDS.get(page)?.length, page).toBeGreaterThan(0);
    for (const command of [...COMMANDS.values()].flat())
      for (const marker of command.comment.match(/\((exit|until|your|CI|run by)\b[^)]*\)/gi) ?? [])
        expect(marker, `${command.page}:${command.line}`).toMatch(
          /^\((exit \d+|until Ctrl-C|your implementation|CI runs this|run by test\/[\w.]+\.test\.ts)\)$/,
        );
  });

  it('the parser reads expected lines, comments and markers', () => {
    expect(splitComment(`echo '# not a comment' | x "a # b"   # yes (exit 1)`)).toEqual([`echo '# not a comment' | x "a # b"`, 'yes (exit 1)']);
    expect(missingLine('a\n  $.url: bad. Expected: long\nb', ['$.url: bad. Expected: ...', 'b'])).toBeUndefined();
    expect(missingLine('b\na', ['a', 'b'])).toBe('b');
    expect(linePattern('x (y) ...').test('x (y) z')).toBe(true);
  });

  it('a command giving --port N runs on a free port instead, and its expected lines name that port', async () => {
    const serve = {
      page: 'p.md',
      line: 1,
      comment: '',
      text: 'npx crawlspec serve --port 3002 --no-auth',
      expected: ['on http://127.0.0.1:3002 (no auth)', 'x:30021'],
    };
    const run = await withFreePorts(serve);
    const port = /^npx crawlspec serve --port (\d+) --no-auth$/.exec(run.text)?.[1];
    expect(port).toBeDefined();
    expect(port).not.toBe('3002');
    expect(run.expected).toEqual([`on http://127.0.0.1:${port} (no auth)`, 'x:30021']);
    for (const text of ['npx crawlspec serve --port 0', 'npx crawlspec serve --port 99999', 'npx crawlspec serve'])
      expect((await withFreePorts({ ...serve, text })).text).toBe(text);
  });

  // A safety net only: each command has its own (COMMAND_TIMEOUT_MS), and a page runs some twenty of them in turn.
  it.concurrent.each(PAGES)('%s: every sh command runs and prints what the page shows', { timeout: 900_000 }, async (page) => {
    const cwd = await pageFolder(page);
    for (const command of COMMANDS.get(page)!) await check(command, cwd);
  });
});

describe('the TypeScript of the documentation', () => {
  const snippets = PAGES.flatMap((page) =>
    blocks(readFileSync(join(ROOT, page), 'utf8'), 'ts').map((block) => ({
      page,
      line: block.line,
      code: block.lines.join('\n'),
      expected: block.lines.filter((l) => l.startsWith('// → ')).map((l) => l.slice('// → '.length)),
    })),
  );
  let project: string;

  beforeAll(async () => {
    project = join(scratch, 'consumer');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await symlink(ROOT, join(project, 'node_modules', 'crawlspec'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const compilerOptions = { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] };
    const files = snippets.map((_, i) => `snippet${i}.ts`);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    await Promise.all(snippets.map((s, i) => writeFile(join(project, `snippet${i}.ts`), `${s.code}\nexport {};\n`)));
  });

  it('there are some', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(4);
  });

  it('compile against the package, as a consumer imports it', async () => {
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
    const located = run.output.replace(/snippet(\d+)\.ts\((\d+),/g, (_, i: string, l: string) => `${snippets[Number(i)]!.page}:${snippets[Number(i)]!.line + Number(l) - 1} (`);
    expect(located).toBe('');
    expect(run.code).toBe(0);
  });

  it.concurrent.each(snippets.map((s, i) => [`${s.page}:${s.line}`, i] as const))('%s runs and prints what the page shows', async (where, i) => {
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', TSX, `snippet${i}.ts`], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
    expect(run.code, `${where}\n${run.output}`).toBe(0);
    expect(missingLine(run.output, snippets[i]!.expected), `${where}: not printed\n${run.output}`).toBeUndefined();
  });
});
