/**
 * The command's usage texts: one per subcommand (`crawlspec <command> --help`), and the whole of them
 * (`crawlspec --help`). A usage error prints one line and points at the usage of its command.
 */

const EXIT_DOCUMENTS = `exit status: 0 valid, 1 invalid, 2 usage error or unreadable input`;

/** The exit status every command may end with, beside its own (the top-level usage lists it too). */
const EXIT_BUG = '             4 the command failed: a bug of crawlspec (the message says so)';

/** Each text with EXIT_BUG below its exit statuses, which end it. */
const withBugExit = <T extends Record<string, string>>(texts: T): { readonly [K in keyof T]: string } =>
  Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, `${text}\n${EXIT_BUG}`])) as { readonly [K in keyof T]: string };

export const COMMAND_USAGE = withBugExit({
  validate: `usage: crawlspec validate [--jsonl] <schema> [file]
       crawlspec validate --list

  Validate a JSON document from file (or stdin, also as "-") against a schema and its rules, e.g.
  crawlspec validate v2/CrawlRequest body.json. Each problem: its JSON path, what is wrong, what is expected.

  --jsonl   one JSON document per line (blank lines skipped); prints one JSON result per line
  --list    list the schema names (e.g. v2/CrawlRequest), one a line

${EXIT_DOCUMENTS}`,
  defaults: `usage: crawlspec defaults <schema> [file]

  Print the body (from file, or stdin) with the interface's defaults filled in; an invalid body is
  refused with its problems on stderr.

${EXIT_DOCUMENTS}`,
  migrate: `usage: crawlspec migrate [file]

  Turn a v1 crawl or batch scrape request (from file, or stdin) into the v2 request asking for the same
  thing; what v2 cannot say is a warning on stderr.

${EXIT_DOCUMENTS}`,
  examples: `usage: crawlspec examples

  Validate every example the OpenAPI documents publish.

exit status: 0 every example valid, 1 one is not, 2 usage error`,
  docs: `usage: crawlspec docs [--version v1|v2] [--title T] [--server-url URL] [--reference-url URL | --no-provenance] -o FILE

  Write the HTML documentation page of one version (the page the package ships, Redoc, one self-contained
  file that loads nothing from elsewhere), with your API's name and your service's address. Each element
  says where it comes from ("interface §2.4" or "service"), linked to its section of the reference the
  package ships (generated/spec/reference.html).

  --version v1|v2   the version (default v2)
  --title T         the API's name; the page shows it with the version, e.g. "Acme Crawl API (v2)"
                    (default "Crawl and batch scrape API")
  --server-url URL  the service's address, without the version: https://api.example.com (default: a
                    variable a reader fills in, http://localhost:3002 until then)
  --reference-url URL
                    where the provenance links go: the address you publish the reference at
                    (default: the file: URL of the installed package's reference)
  --no-provenance   leave provenance out: no source lines, no citations, no x-crawlspec-* annotations
  -o, --output FILE the file to write

exit status: 0 written, 2 usage error or the file cannot be written`,
  proxy: `usage: crawlspec proxy --target URL [--port N] [--host H] [--level interface|service] [--errors] [--json FILE] [--log FILE]
                       [--record FILE] [--config FILE]

  Forward every request to the target as it came and answer with the target's answer, until Ctrl-C; print
  one line per request body or answer that breaks the spec (where, what, what is expected, the level and
  section) and per exchange it could not check (why), and the totals on exit. Point a client at the address
  it prints instead of the service.

  --target URL      the service's base address, e.g. http://127.0.0.1:3002
  --port N          0 to 65535 (default 0: any free port); the address is printed
  --host H          an address of this machine to listen on (default 127.0.0.1)
  --level L         interface (default): the interface's expectations decide, the service's are shown as
                    differences; service: both decide
  --errors          answer a request whose body breaks the spec at the level with the service's 400 error
                    body, instead of forwarding it
  --json FILE       also write each problem as a JSON line (the token redacted, as everywhere)
  --log FILE        write every exchange with its verdict as a JSON line (bodies cut to 600 bytes)
  --record FILE     record every exchange as HAR 1.2 (the token redacted, no header but Content-Type, no
                    query; answers cut to 256 KiB), for crawlspec check-traffic FILE
  --config FILE     read these options from FILE (default: crawlspec.config.json here, if there is one):
                    its "proxy" object, each key an option without its --; a flag overrides its key

  Bounds: a request body of more than 10 MiB is answered 413; an answer is streamed through as it comes and
  checked only when it is JSON and at most 32 MiB; at most 256 MiB is held for checking at once (past it, a
  request is answered 503 and an answer passes through unchecked); the target must answer within 120 s (else 502).

exit status: 0 stopped by Ctrl-C (SIGINT) or SIGTERM, 2 usage error or the address cannot be listened on`,
  serve: `usage: crawlspec serve [--port N] [--host H] [--token T | --no-auth] [--allow-host HOST[:PORT]]... [--public-url URL]
                      [--resolve NAME=ADDR]... [--webhook-secret S] [--credits-unknown]

  Run the reference server (an implementation of v1 and v2) until Ctrl-C. Its jobs crawl its own demo
  site, and the hosts --allow-host names, over HTTP; any other host gets a made-up page, and the network
  is never touched. It answers only requests naming it (Host), and starts only JSON bodies.

  --port N          0 to 65535 (default 0: any free port); the address is printed
  --host H          an address of this machine to listen on (default 127.0.0.1; another is reachable
                    from other machines: a warning says so)
  --token T         the bearer token clients must send (also from CRAWLSPEC_TOKEN; default: a random
                    one, printed)
  --no-auth         no authentication (a warning says so)
  --allow-host HOST[:PORT]
                    a host name or address, on every port or on PORT, the jobs may also fetch pages
                    from and webhooks may also be delivered to (repeatable), loopback ports other than
                    the server's own included (e.g. --allow-host 127.0.0.1:8080); a name is connected
                    to only where it resolves to an address allowed on every port
  --resolve NAME=ADDR
                    fetch NAME (on any port) from the loopback address ADDR, with no DNS (repeatable,
                    like curl's), e.g. --resolve site.example.com=127.0.0.1 --resolve
                    sub.site.example.com=127.0.0.1 for crawlspec contract --site-host site.example.com
  --public-url URL  the address clients reach the server at (behind a proxy, or with --host 0.0.0.0):
                    job URLs are built from it, and it is answered to
  --webhook-secret S
                    sign every webhook delivery: X-Firecrawl-Signature: sha256=<hex HMAC-SHA256 of the
                    body> (also from CRAWLSPEC_WEBHOOK_SECRET; default: deliveries are not signed)
  --credits-unknown status answers say creditsUsed: -1, as a self-hosted service without database
                    authentication does (default: the pages scraped so far)

exit status: 0 stopped by Ctrl-C (SIGINT) or SIGTERM, 2 usage error or the address cannot be listened on`,
  contract: `usage: crawlspec contract [--base-url URL] [--token T | --no-auth] [options]
       crawlspec contract replay FILE (--base-url URL | --to-recorded-target) [--token T | --no-auth]
                                 [--header 'N: V']... [--timeout S]

  Test an implementation of the interface over HTTP and report where it deviates. Without --base-url the
  built-in reference server is started and tested (what npm start does).

  --base-url URL              the implementation, without the version segment (e.g. http://127.0.0.1:3002)
  --token T | --no-auth       its bearer token (also from CRAWLSPEC_TOKEN), or none; one is needed with --base-url
  --version v1|v2|both        the versions to test (default both)
  --level interface|service   what decides the verdict (default interface: what the interface document states)
  --seed N                    0 to 2147483647: the same seed sends the same bodies (default: from the clock)
  --runs N                    1 to 100000 generated requests per generated check (default 10)
  --max-requests N            0 or more: cap on the requests sent (default: what every check needs)
  --concurrency N             1 to 64 requests in flight at once (default 2)
  --site-url URL              the only site valid requests point at (default: the kit's test site, a copy
                              given or served for a loopback target, else https://example.com)
  --site-page PATH            a page of the site (--site-url, or the copy of --behaviour-site); repeatable, at
                              least two (default: its usual paths)
  --site-failing PATH         an address of that site whose scrape fails (for the errors check)
  --timeout SECONDS           1 to 3600: how long a request may wait for its answer (default 30)
  --max-duration SECONDS      1 to 86400: the whole run's time limit (default 3600); then only the cancels
                              of the jobs started are sent, and the checks not ended are not judged (exit 3)
  --max-response-bytes N      longest answer read (default 16777216)
  --header 'Name: value'      sent on every request (repeatable), e.g. an API gateway's key; not
                              Authorization, Content-Type or Host; its value is redacted like the token
  --wait-for-target SECONDS   1 to 3600: first wait until the target gives any HTTP answer (one starting)
  --confirm N                 1 to 20: run each failing behaviour check N times more (flaky or broken)
  --only-no-job               only the checks that start no job (refusal checks start their bases): the
                              unknown-job answers, the service's, so use it with --level service
  --only PATTERN              only the checks a pattern names (* for any run of characters); repeatable
  --skip PATTERN              leave out the checks a pattern names (same patterns); repeatable; a check the
                              target cannot run and no --skip names leaves the run incomplete
  --list-checks               print every check (name, level, citation) and exit
  --behaviour | --no-behaviour          crawl-, scrape- and batch-behaviour checks (default: on a loopback
                                        target, with a copy of the test site, or with --site-host / --site-port)
  --site-host NAME                      serve the test site under NAME and sub.NAME (both resolving to
                                        127.0.0.1 for the target; with a public suffix: crawlspec.example.com)
  --site-port N                         1 to 65535: the port the test site is served on (default: a free one)
  --behaviour-site URL --behaviour-external URL [--behaviour-subdomain URL]
                                        a deployed copy of the test site (crawlspec site export): crawled by
                                        every job without --site-url
  --webhook-url URL           a crawlspec webhook-receiver the target and the kit both reach, for the webhook
                              checks (default: on a loopback target, one the kit runs on 127.0.0.1)
  --webhook-secret S          the secret the target signs webhook deliveries with (also from
                              CRAWLSPEC_WEBHOOK_SECRET): the signature check runs only with it
  --report FILE               also write the report as JUnit XML
  --html FILE                 also write the report as one self-contained HTML page (a table of the checks,
                              filtered by state or name; each failure with expected, got and the curl line)
  --record FILE               also record every exchange as HAR 1.2 (token and header values redacted)
  --markdown FILE             also write a short Markdown summary (verdict, totals, faults, failing checks),
                              fit for a CI job summary ($GITHUB_STEP_SUMMARY)
  --baseline FILE             known deviations (schema: crawlspec/contract/known-deviations.schema.json): a
                              failure in FILE is KNOWN and does not fail the run (verdict "known deviations
                              only", exit 0), a new one or one past its expires date fails it, an entry no
                              longer met is FIXED (remove it from FILE)
  --update-baseline           write the run's failures to the --baseline FILE (one entry per fault; expires
                              and note kept), then judge the run against it
  --baseline-strict           an entry of the --baseline FILE no longer met fails the run (exit 1), so that
                              the file only shrinks
  --json                      print the report as JSON (schema: crawlspec/contract/report.schema.json),
                              with its spec coverage; the line printed as each check ends goes to stderr
  --min-coverage N            0 to 100: fail the run (exit 1) when the spec coverage's overall figure (the
                              mean of its measures) is below N; MEASURE=N for one measure (operations,
                              statuses, checkedAnswers, requestFields, invalidFields, enumValues, rules,
                              answerFields); repeatable, each must hold
  --config FILE               read these options from FILE (default: crawlspec.config.json here, if there is
                              one; schema: crawlspec/config.schema.json): its "contract" object, each key an
                              option without its -- ({"base-url": URL, "runs": 20, "skip": [...]}); a flag
                              overrides its key; never the token or webhook secret (use the variables)

  replay FILE: send the failing exchanges of a run recorded with --record again, with the token and --header
  values, to --base-url, or with --to-recorded-target to the target the recording names (only for a recording
  you trust: without either, nothing is sent), each judged as in the run: FIXED, STILL FAILING or NOT JUDGED
  (one that got no answer is never FIXED); failures judged over a whole job or on the run's jobs are listed
  NOT REPLAYED, with the check to run again (--only NAME)

exit status: 0 conformant (or known deviations only), 1 deviations found (or known deviations out of date, or
             coverage below --min-coverage), 2 target never reached, usage error, a bad --baseline file or a
             report not written,
             3 incomplete (a check that decides the verdict was skipped or inconclusive)
             replay: 0 all fixed, 1 one still failing, 2 usage error, no recording or target never reached,
                     3 one not judged or replayed`,
  site: `usage: crawlspec site serve [--port N] [--host NAME]
       crawlspec site export <dir> --base-url URL [--external-url URL] [--subdomain-url URL]

  The contract kit's test site. serve: on 127.0.0.1 and 127.0.0.2 (the other site), one port, until
  Ctrl-C; under the host name NAME (and sub.NAME) when given, which must resolve to 127.0.0.1.
  export: as static files in <dir>, to deploy at those addresses (SERVING.md in <dir> says how).

exit status: 0 done (serve: stopped by Ctrl-C), 2 usage error or the port cannot be listened on`,
  'webhook-receiver': `usage: crawlspec webhook-receiver [--port N] [--host H]

  Receive webhook deliveries for the contract kit, until Ctrl-C: run it where the target you test can
  deliver to it and the kit can read it, and give its address to crawlspec contract --webhook-url. Each
  path is an inbox: POST delivers, GET reads (the kit's inboxes have addresses nobody can guess), DELETE
  forgets; what it keeps is bounded (docs/contract-kit.md).

  --port N   0 to 65535 (default 0: any free port); the address is printed
  --host H   an address of this machine to listen on (default 127.0.0.1; another is reachable from
             other machines: a warning says so)

exit status: 0 stopped by Ctrl-C (SIGINT) or SIGTERM, 2 usage error or the address cannot be listened on`,
  'check-traffic': `usage: crawlspec check-traffic FILE.har [--level interface|service] [--json]

  Check every exchange of an HTTP Archive (crawlspec proxy --record, crawlspec contract --record, or any HAR
  1.2) offline, as crawlspec proxy checks it live: one line per problem and per exchange it could not check,
  the totals, and the spec coverage of the traffic (operations, answers, request fields, enum values, rules,
  answer fields, and what nothing touched).

  --level L         interface (default): the interface's expectations decide, the service's are shown as
                    differences; service: both decide
  --json            print the coverage as JSON (crawlspec/contract/coverage.schema.json); the lines go to stderr

  Bounds: the file is read as a stream, one entry at a time; an entry of more than 64 MiB is refused.
exit status: 0 no problem that decides at the level, 1 problems found, 2 usage error or a file that cannot be
             read as HAR (one line)`,
} as const);

export type CommandName = keyof typeof COMMAND_USAGE;

export const COMMAND_NAMES = Object.keys(COMMAND_USAGE) as CommandName[];

/** The whole usage, printed by `crawlspec --help`. */
export const USAGE = `usage: crawlspec <command> [options]       (crawlspec <command> --help for one command)

  crawlspec validate [--jsonl] <schema> [file]   validate a JSON document (from file, or stdin): schema and rules
  crawlspec validate --list                      list the schema names (e.g. v2/CrawlRequest)
  crawlspec defaults <schema> [file]             print the body with the interface's defaults filled in
  crawlspec migrate [file]                       turn a v1 crawl or batch request into the v2 request
                                                 asking for the same thing (warnings on stderr)
  crawlspec examples                             validate every example of the OpenAPI documents
  crawlspec docs [--version v1|v2] [--title T] [--server-url URL] [--no-provenance] -o FILE
                                                 write a version's HTML documentation page, with your
                                                 API's name and your service's address
  crawlspec proxy --target URL [--port N] [--level L] [--errors] [--json FILE] [--log FILE]
                                                 forward a client's requests to a target and report each
                                                 request and answer that breaks the spec
  crawlspec check-traffic FILE.har [--level L] [--json]
                                                 check a recorded client's traffic offline, and say
                                                 its problems and its spec coverage
  crawlspec serve [--port N] [--host H] [--token T | --no-auth] [--allow-host NAME]...
                                                 run the reference server (127.0.0.1 unless told otherwise)
  crawlspec contract [--base-url URL] [--token T | --no-auth] [options]
                                                 test an implementation against the interface; without
                                                 --base-url, the built-in reference server is the target
  crawlspec contract replay FILE (--base-url URL | --to-recorded-target) [options]
                                                 send the failing exchanges of a run recorded with --record
                                                 again: FIXED or STILL FAILING, each
  crawlspec site serve [--port N] [--host NAME]  serve the kit's test site on 127.0.0.1 and 127.0.0.2
  crawlspec site export <dir> --base-url URL [--external-url URL] [--subdomain-url URL]
                                                 write the test site as static files, to deploy at those addresses
  crawlspec webhook-receiver [--port N] [--host H]
                                                 receive webhook deliveries for the kit (--webhook-url)
  crawlspec --version                            print the version

exit status: 0 valid (contract: conformant), 1 invalid (contract: deviations found),
             2 usage error, unreadable input (contract: target unreachable),
             3 (contract only) incomplete: a check that decides the verdict was skipped or inconclusive,
             4 the command failed: a bug of crawlspec (the message says so)`;
