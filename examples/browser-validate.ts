/**
 * Checking a crawl request in the browser with the precompiled standalone validator: no Ajv compiler is
 * shipped, nothing is compiled at run time (a Content-Security-Policy without 'unsafe-eval' is fine), and
 * no Node built-in is needed. Bundle it with `node --import tsx examples/build-browser.ts` (esbuild), then:
 *
 *   <script src="browser-validate.js"></script>
 *   <script>
 *     const check = crawlspec.checkCrawlRequest({ url: 'https://example.com', limit: 'ten' });
 *     if (!check.valid) console.log(check.problems); // ["/limit must be integer"]
 *   </script>
 *
 * The validator checks the schema, which carries every rule JSON Schema can say; `validate()` in
 * schemas/validate.ts also applies the rules written as code (crawl URLs, path patterns, waits).
 */
import type { CrawlRequest as CrawlRequestBody } from '../generated/types/v2.js';
// The all-errors validators list every problem of a form at once; the input is the user's own and small.
// (A server checking untrusted bodies uses the first-error ones: `crawlspec/validators/v2`.)
import { CrawlRequest } from '../generated/validators/v2.all-errors.js';

export type Check = { readonly valid: true; readonly request: CrawlRequestBody } | { readonly valid: false; readonly problems: string[] };

export function checkCrawlRequest(body: unknown): Check {
  if (CrawlRequest(body)) return { valid: true, request: body };
  return { valid: false, problems: (CrawlRequest.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`) };
}
