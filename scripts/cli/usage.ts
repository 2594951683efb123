/** The command's usage text, printed by `crawlspec help` and after a usage error. */
export const USAGE = `usage:
  crawlspec validate [--jsonl] <schema> [file]   validate a JSON document (from file, or stdin): schema and rules
  crawlspec validate --list                      list the schema names (e.g. v2/CrawlRequest)
  crawlspec defaults <schema> [file]             print the body with the interface's defaults filled in
  crawlspec migrate [file]                       turn a v1 crawl or batch request into the v2 request
                                                 asking for the same thing (warnings on stderr)
  crawlspec examples                             validate every example of the OpenAPI documents
  crawlspec serve [--port N] [--host H] [--token T | --no-auth]
                                                 run the reference server (127.0.0.1 unless told otherwise)
  crawlspec contract [--base-url URL] [--token T | --no-auth] [--version v1|v2|both] [--level interface|service]
                     [--seed N] [--runs N] [--max-requests N] [--concurrency N] [--timeout SECONDS]
                     [--site-url URL [--site-page PATH]... [--site-failing PATH]]
                     [--max-response-bytes N] [--only-no-job] [--only PATTERN]... [--report junit.xml] [--json] [--list-checks]
                                                 test an implementation against the interface (token also from
                                                 CRAWLSPEC_TOKEN); without --base-url, the built-in reference
                                                 server is the target
                     [--behaviour | --no-behaviour] [--site-host NAME]
                     [--behaviour-site URL --behaviour-external URL [--behaviour-subdomain URL]]
                                                 crawl-behaviour checks: on a loopback target by default, on the
                                                 kit's test site; elsewhere on a deployed copy (site export)
  crawlspec site serve [--port N] [--host NAME]  serve the kit's test site on 127.0.0.1 and 127.0.0.2
  crawlspec site export <dir> --base-url URL [--external-url URL] [--subdomain-url URL]
                                                 write the test site as static files, to deploy at those addresses

  --jsonl   one JSON document per line; prints one JSON result per line

exit status: 0 valid (contract: conformant), 1 invalid (contract: deviations found),
             2 usage error, unreadable input (contract: target unreachable),
             3 (contract only) incomplete: a check that decides the verdict was skipped or inconclusive`;
