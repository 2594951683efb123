/**
 * The `crawlspec` command's usage errors, run for real (test/support/cliRuns.ts): one line on stderr,
 * `crawlspec: <what is wrong>; <what is expected> (<pointer>)`, exit 2, before anything starts; never the whole
 * usage text, never a stack trace. The table of usage errors, which stop at the arguments, runs in one process
 * (test/support/cliMany.ts); the other usage errors (an address `serve` and `site serve` cannot listen on
 * included) are spawned one by one.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { schemaNames } from '../schemas/validate.js';
import { schemaSuggestions } from '../scripts/cli/documents.js';
import { ROOT, runCli, runScript, type CliRun as Run } from './support/runCli.js';
import { BATCH, SPAWN_TIMEOUT_MS, TEST_TIMEOUT_MS, cli, line, lines, outcome, tempDir, useTempDir, withSlot } from './support/cliRuns.js';

useTempDir();

/**
 * A usage error is one line on stderr, `crawlspec: <what is wrong>; <what is expected> (<pointer>)`, exit 2:
 * never the whole usage text, never a stack trace, nothing on stdout. What the line must say is matched.
 */
function expectUsageError(run: Run, said: RegExp, pointer: string, expect: ExpectStatic): void {
  expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
  const [first, ...more] = lines(run.stderr);
  expect(more, run.stderr).toEqual([]);
  expect(first).toMatch(/^crawlspec: /);
  expect(first!.endsWith(` (${pointer})`), first).toBe(true);
  expect(first!.slice(0, -` (${pointer})`.length)).toMatch(said);
  expect(run.stderr).not.toContain('usage:');
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

/** What every option of every subcommand answers when it is wrong: [arguments, what the line says, the pointer]. */
const USAGE_ERRORS: readonly (readonly [readonly string[], RegExp, string])[] = [
  [[], /no command given; expected one of validate, defaults, migrate, examples, docs, proxy, serve, contract, site, webhook-receiver, check-traffic$/, 'crawlspec --help'],
  [['check', 'v2/CrawlRequest'], /unknown command "check"; expected one of validate, .*, or --version$/, 'crawlspec --help'],
  [['validate'], /validate needs a schema name, e.g\. v2\/CrawlRequest$/, 'crawlspec validate --help'],
  [['validate', 'v2/CrawlRequest', 'a.json', 'b.json'], /unexpected argument "b\.json"; validate takes a schema name and at most one file$/, 'crawlspec validate --help'],
  [['validate', '--strict', 'v2/CrawlRequest'], /unknown option "--strict"; validate takes --jsonl, --list$/, 'crawlspec validate --help'],
  [['validate', '--jsonl=yes', 'v2/CrawlRequest'], /--jsonl takes no value$/, 'crawlspec validate --help'],
  [['validate', '--list', 'v2/CrawlRequest'], /--list takes nothing else/, 'crawlspec validate --help'],
  [['defaults'], /defaults needs a schema name/, 'crawlspec defaults --help'],
  [['defaults', '--jsonl', 'v2/CrawlRequest'], /unknown option "--jsonl"; defaults takes no options$/, 'crawlspec defaults --help'],
  [['migrate', 'a.json', 'b.json'], /unexpected argument "b\.json"; migrate takes at most one file$/, 'crawlspec migrate --help'],
  [['examples', 'extra'], /unexpected argument "extra"; examples takes no arguments$/, 'crawlspec examples --help'],
  [['serve', '--port', '99999'], /--port takes a whole number from 0 to 65535, not "99999"$/, 'crawlspec serve --help'],
  [['serve', '--port', 'eighty'], /--port takes a whole number from 0 to 65535, not "eighty"$/, 'crawlspec serve --help'],
  [['serve', '--port'], /--port needs a value$/, 'crawlspec serve --help'],
  [['serve', '--host', 'nosuch.invalid'], /--host "nosuch\.invalid" does not resolve \(\w+\); expected an address of this machine/, 'crawlspec serve --help'],
  [['serve', '--host', ''], /--host is empty; expected an address of this machine/, 'crawlspec serve --help'],
  [['serve', '--token', ''], /--token is empty; expected the token clients must send \(or --no-auth for no authentication\)$/, 'crawlspec serve --help'],
  [['serve', '--token', 'two words'], /--token holds a space, a control character or a character beyond ASCII; expected a bearer token/, 'crawlspec serve --help'],
  [['serve', '--token', 'a', '--no-auth'], /--token and --no-auth exclude each other$/, 'crawlspec serve --help'],
  [['serve', 'extra'], /unexpected argument "extra"; serve takes options only$/, 'crawlspec serve --help'],
  [['contract', '--base-url', 'notaurl', '--no-auth'], /--base-url takes an http or https address, e.g\. http:\/\/127\.0\.0\.1:3002, not "notaurl"$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'ftp://example.com', '--no-auth'], /--base-url takes an http or https address/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:0', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:0" has the port 0; expected a port from 1 to 65535, e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:65536', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:65536" has the port 65536; expected a port from 1 to 65535/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/?x=1', '--no-auth'], /--base-url takes an address without a query or fragment, e\.g\. http:\/\/127\.0\.0\.1:3002, not "http:\/\/127\.0\.0\.1:3002\/\?x=1"$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/#top', '--no-auth'], /--base-url takes an address without a query or fragment/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:3002/api/v2/', '--no-auth'], /--base-url "http:\/\/127\.0\.0\.1:3002\/api\/v2\/" ends with the version segment \/v2; expected the base address without it \(the paths add \/v1\/\.\.\. and \/v2\/\.\.\.\), e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://user:s3cret@127.0.0.1:3002', '--no-auth'], /^(?!.*s3cret).*--base-url holds a user name or password \(before the @\); expected the address alone, e\.g\. http:\/\/127\.0\.0\.1:3002$/, 'crawlspec contract --help'],
  [['docs', '--server-url', 'https://u:s3cret@api.example.com:0/?q', '-o', 'x.html'], /^(?!.*s3cret).*--server-url holds a user name or password/, 'crawlspec docs --help'],
  [['contract', '--header', 'X-A:'], /--header "X-A:" is not Name: value; expected a header name, a colon and its value/, 'crawlspec contract --help'],
  [['contract', '--webhook-url', 'http://127.0.0.1:0/hook'], /--webhook-url "http:\/\/127\.0\.0\.1:0\/hook" has the port 0/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:1'], /a target needs --token T \(or CRAWLSPEC_TOKEN\), or --no-auth/, 'crawlspec contract --help'],
  [['contract', '--token', ''], /--token is empty; expected the API token the target expects/, 'crawlspec contract --help'],
  [['contract', '--base-url', 'http://127.0.0.1:1', '--token', 'a\u001bb'], /--token holds a space, a control character/, 'crawlspec contract --help'],
  [['contract', '--version', 'v3'], /--version takes v1, v2 or both, not "v3"$/, 'crawlspec contract --help'],
  [['contract', '--level', 'strict'], /--level takes interface or service, not "strict"$/, 'crawlspec contract --help'],
  [['contract', '--seed', 'x'], /--seed takes a whole number from 0 to 2147483647, not "x"$/, 'crawlspec contract --help'],
  [['contract', '--runs', '0'], /--runs takes a whole number from 1 to 100000, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--max-requests', '-1'], /--max-requests needs a value/, 'crawlspec contract --help'],
  [['contract', '--max-requests=1.5'], /--max-requests takes a whole number from 0 to 1000000000, not "1\.5"$/, 'crawlspec contract --help'],
  [['contract', '--concurrency', '0'], /--concurrency takes a whole number from 1 to 64, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--max-response-bytes', '0'], /--max-response-bytes takes a whole number from 1 to 1073741824, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'http://localhost'], /--site-url "http:\/\/localhost" is not an address a v1 crawl may start at \(URL must have a valid top-level domain or be an IP address\); expected/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'example'], /--site-url takes an http or https address, e\.g\. https:\/\/example\.com, not "example"$/, 'crawlspec contract --help'],
  [['contract', '--site-page', '/a', '--site-page', '/b'], /--site-page describes the site of --site-url \(or the copy of --behaviour-site\); give one too$/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'https://example.com', '--site-page', '/a'], /--site-page names one page; expected at least two/, 'crawlspec contract --help'],
  [['contract', '--site-url', 'https://example.com', '--site-failing', 'reset'], /--site-failing "reset" is not a path of the site; expected one beginning with \/, e\.g\. \/about$/, 'crawlspec contract --help'],
  [['contract', '--timeout', '0'], /--timeout takes a whole number from 1 to 3600, not "0"$/, 'crawlspec contract --help'],
  [['contract', '--webhook-url', 'http://127.0.0.1:6000', '--no-auth'], /--webhook-url http:\/\/127\.0\.0\.1:6000\/ uses port 6000, which a target built on fetch never connects to \(the Fetch standard's bad ports\); use another port$/, 'crawlspec contract --help'],
  [['contract', '--only', 'nothing.matches'], /--only "nothing\.matches" names no check of v1 and v2; expected a name or pattern of crawlspec contract --list-checks$/, 'crawlspec contract --help'],
  [['contract', '--only', ''], /--only is empty/, 'crawlspec contract --help'],
  [['contract', '--behaviour', '--no-behaviour'], /--behaviour and --no-behaviour exclude each other$/, 'crawlspec contract --help'],
  [['contract', '--site-host', 'not a host'], /--site-host takes a host name \(e\.g\. crawlspec\.example\.com\), not "not a host"$/, 'crawlspec contract --help'],
  [['contract', '--behaviour-site', 'https://site.example'], /--behaviour-site and --behaviour-external go together/, 'crawlspec contract --help'],
  [['contract', '--behaviour-site', 'nope', '--behaviour-external', 'https://b.example'], /--behaviour-site takes an http or https address/, 'crawlspec contract --help'],
  [['contract', '--behaviour-subdomain', 'https://sub.site.example'], /--behaviour-subdomain goes with --behaviour-site and --behaviour-external/, 'crawlspec contract --help'],
  [['contract', '--report', '/nonexistent-dir/junit.xml'], /--report "\/nonexistent-dir\/junit\.xml": the directory "\/nonexistent-dir" does not exist/, 'crawlspec contract --help'],
  [['contract', '--report', '.'], /--report "\." is a directory/, 'crawlspec contract --help'],
  [['contract', '--json=1'], /--json takes no value$/, 'crawlspec contract --help'],
  [['contract', '--bogus'], /unknown option "--bogus"; contract takes --base-url <value>, --token <value>, --no-auth, /, 'crawlspec contract --help'],
  [['contract', '--list-checks', '--json'], /--list-checks prints the table of checks as Markdown; --json does not apply to it$/, 'crawlspec contract --help'],
  [['contract', 'extra'], /unexpected argument "extra"; contract takes options, or replay and a recording \(contract replay FILE\)$/, 'crawlspec contract --help'],
  [['contract', '--json', 'extra'], /unexpected argument "extra"; contract takes options only$/, 'crawlspec contract --help'],
  [['contract', '--base-urll', 'http://127.0.0.1:3002'], /unknown option "--base-urll"; did you mean --base-url\?$/, 'crawlspec contract --help'],
  [['site'], /site needs serve or export$/, 'crawlspec site --help'],
  [['site', 'publish'], /site takes serve or export, not "publish"$/, 'crawlspec site --help'],
  [['site', 'serve', '--port', '70000'], /--port takes a whole number from 0 to 65535, not "70000"$/, 'crawlspec site --help'],
  [['site', 'serve', '--host', '127.0.0.1'], /--host takes a host name \(e\.g\. crawlspec\.example\.com\), not an IP address: "127\.0\.0\.1"$/, 'crawlspec site --help'],
  [['contract', '--site-host', '10.0.0.1'], /--site-host takes a host name \(e\.g\. crawlspec\.example\.com\), not an IP address: "10\.0\.0\.1"$/, 'crawlspec contract --help'],
  [['site', 'serve', '--host', 'bad host'], /--host takes a host name \(e\.g\. crawlspec\.example\.com\), not "bad host"$/, 'crawlspec site --help'],
  [['proxy'], /proxy needs --target URL, the service to forward to, e\.g\. --target http:\/\/127\.0\.0\.1:3002$/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'ftp://x.example'], /--target takes an http or https address/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'http://127.0.0.1:0'], /--target "http:\/\/127\.0\.0\.1:0" has the port 0; expected a port from 1 to 65535/, 'crawlspec proxy --help'],
  [['proxy', '--target', 'http://127.0.0.1:3002/v1'], /--target "http:\/\/127\.0\.0\.1:3002\/v1" ends with the version segment \/v1/, 'crawlspec proxy --help'],
  [['docs', '--server-url', 'https://api.example.com/v2', '-o', 'x.html'], /--server-url "https:\/\/api\.example\.com\/v2" ends with the version segment \/v2/, 'crawlspec docs --help'],
  [['serve', '--public-url', 'http://127.0.0.1:3002/base?x=1'], /--public-url takes an address without a query or fragment, e\.g\. https:\/\/crawlspec\.example\.com/, 'crawlspec serve --help'],
  [['proxy', '--target', 'http://127.0.0.1:3002', '--level', 'strict'], /--level takes interface or service, not "strict"$/, 'crawlspec proxy --help'],
  [['docs', '--version', 'v9', '-o', 'x.html'], /--version takes v1 or v2, not "v9"$/, 'crawlspec docs --help'],
  [['docs', '-o=x.html'], /-o=x\.html: a short option takes its value after a space \(-o x\.html\) or as --output=x\.html$/, 'crawlspec docs --help'],
  [['docs', '-o', 'a.html', '-o', 'b.html'], /--output \(-o\) is given twice; expected it once$/, 'crawlspec docs --help'],
  [['serve', '--port', '65536', '--port', '0'], /--port is given twice; expected it once$/, 'crawlspec serve --help'],
  [['docs', '-o', '/proc/crawlspec-page.html'], /-o "\/proc\/crawlspec-page\.html" cannot be written \((ENOENT|no permission)\); expected a file you may write$/, 'crawlspec docs --help'],
  [['docs', '-o', 'package.json/page.html'], /-o "package\.json\/page\.html": ".*package\.json" is a file, not a directory; expected a file in a directory$/, 'crawlspec docs --help'],
  [['site', 'serve', '--bogus'], /unknown option "--bogus"; site serve takes --port <value>, --host <value>$/, 'crawlspec site serve --help'],
  [['site', 'export'], /site export needs a directory to write to/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x'], /site export needs --base-url, the address the site will be served at$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'https://site.example/docs'], /--base-url "https:\/\/site\.example\/docs" has a path; expected an origin \(the site is served at its root\), e\.g\. https:\/\/site\.example$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'https://site.example', '--external-url', 'https://site.example/'], /site export: the sites need addresses of their own; --base-url, --external-url and --subdomain-url give https:\/\/site\.example, https:\/\/site\.example$/, 'crawlspec site --help'],
  [['site', 'export', '', '--base-url', 'http://localhost:8080'], /site export: the directory is empty; expected a directory to write to, e\.g\. \.\/site$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'site.example'], /--base-url takes an http or https address, e\.g\. https:\/\/crawlspec-site\.example\.org, not "site\.example"$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'http://127.0.0.1:8080'], /--base-url http:\/\/127\.0\.0\.1:8080 is an IP address, with no host name to put the other site under \(external\.127\.0\.0\.1\): give --external-url, the address the other site will be served at$/, 'crawlspec site --help'],
  [['site', 'export', '/tmp/x', '--base-url', 'http://[::1]:8080'], /--base-url http:\/\/\[::1\]:8080 is an IP address, .*give --external-url/, 'crawlspec site --help'],
];

/**
 * What `crawlspec <args>` writes and exits with for each of `lists`, all run in one process (test/support/cliMany.ts):
 * one spawn where each would cost one, for commands that stop at their arguments.
 */
async function cliMany(lists: readonly (readonly string[])[]): Promise<Run[]> {
  const run = await withSlot(() => runScript(join(ROOT, 'test', 'support', 'cliMany.ts'), [], JSON.stringify(lists), SPAWN_TIMEOUT_MS));
  if (run.code !== 0) throw new Error(`test/support/cliMany.ts failed (${run.code ?? run.signal}): ${run.stderr}`);
  const results = JSON.parse(run.stdout) as { code: number | undefined; stdout: string; stderr: string }[];
  return results.map((r) => ({ code: r.code ?? 0, signal: null, stdout: r.stdout, stderr: r.stderr }));
}

describe.concurrent('crawlspec usage errors: one line on stderr, exit 2, before anything starts', { timeout: 60_000 }, () => {
  // Every argument list of the table in one process; the spawns of this block and the next ones show the same lines
  // and exit status from processes of their own.
  let table: Promise<Map<string, Run>>;
  beforeAll(() => {
    const lists = USAGE_ERRORS.map(([args]) => args);
    table = cliMany(lists).then((runs) => new Map(runs.map((run, i) => [JSON.stringify(lists[i]), run])));
    table.catch(() => {}); // awaited by each test below
  });

  it.for(USAGE_ERRORS)('crawlspec %j', async ([args, said, pointer], { expect }) => {
    expectUsageError((await table).get(JSON.stringify(args))!, said, pointer, expect);
  });

  it('an unknown schema name suggests the name meant: another letter case, the version left out, a typo', async ({ expect }) => {
    const [wrongCase, noVersion, typo, nothingClose] = await Promise.all([
      cli(['validate', 'v2/crawlrequest'], line(BATCH)),
      cli(['defaults', 'BatchScrapeRequest'], line(BATCH)),
      cli(['validate', 'v1/CrawlRequst'], line(BATCH)),
      cli(['validate', 'v9/Nothing'], line(BATCH)),
    ]);
    const pointer = 'crawlspec validate --list lists every name';
    expectUsageError(wrongCase, /unknown schema "v2\/crawlrequest"; did you mean v2\/CrawlRequest\?$/, pointer, expect);
    expectUsageError(noVersion, /unknown schema "BatchScrapeRequest"; did you mean v1\/BatchScrapeRequest or v2\/BatchScrapeRequest\?$/, pointer, expect);
    expectUsageError(typo, /unknown schema "v1\/CrawlRequst"; did you mean v1\/CrawlRequest\?$/, pointer, expect);
    expectUsageError(nothingClose, /unknown schema "v9\/Nothing"$/, pointer, expect);
  });

  it('the suggestions for every schema name, misspelt or in another case, name it', ({ expect }) => {
    for (const name of schemaNames()) {
      expect(schemaSuggestions(name.toLowerCase()), name).toEqual([name]);
      expect(schemaSuggestions(name.toUpperCase()), name).toEqual([name]);
      const typo = `${name.slice(0, -2)}${name.at(-1)}`; // one letter left out
      expect(schemaSuggestions(typo), typo).toContain(name);
    }
  });

  it('CRAWLSPEC_TOKEN set but empty (an unset CI secret) is refused, and --no-auth ignores it', async ({ expect }) => {
    const empty = await withSlot(() =>
      runCli(['contract', '--base-url', 'http://127.0.0.1:1'], '', SPAWN_TIMEOUT_MS, { CRAWLSPEC_TOKEN: '' }),
    );
    expectUsageError(empty, /CRAWLSPEC_TOKEN is empty; expected the API token the target expects/, 'crawlspec contract --help', expect);
    const ignored = await withSlot(() =>
      runCli(['contract', '--no-auth', '--list-checks', '--version', 'v2'], '', SPAWN_TIMEOUT_MS, { CRAWLSPEC_TOKEN: 'set' }),
    );
    expect(ignored.code, ignored.stderr).toBe(0);
  });

  it('unreadable file (names the path): one line, exit 2', async ({ expect }) => {
    const missing = join(tempDir(), 'does-not-exist.json');
    const run = await cli(['validate', 'v2/CrawlRequest', missing]);
    expect(outcome(run)).toMatchObject({ code: 2, stdout: '' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(new RegExp(`^crawlspec: cannot read "${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": ENOENT`))]);
  });
});

describe.concurrent('crawlspec serve and site serve: an address that cannot be listened on is one line, exit 2', { timeout: TEST_TIMEOUT_MS }, () => {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it.for([['serve', '--no-auth'], ['site', 'serve']])('crawlspec %s %s --port <a port in use>', async (command, { expect }) => {
    const run = await cli([...command, '--port', String(port)]);
    expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(lines(run.stderr)).toEqual([
      `crawlspec: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); expected a free --port, or --port 0 for any free one`,
    ]);
  });

  it('crawlspec serve --host <an address of another machine>', async ({ expect }) => {
    const run = await cli(['serve', '--host', '192.0.2.1', '--no-auth']);
    expect(outcome(run)).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^crawlspec: cannot listen on 192\.0\.2\.1:0: "192\.0\.2\.1" is not an address of this machine \(EADDRNOTAVAIL\); expected one/)]);
  });
});
