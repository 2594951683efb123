/**
 * No regular expression of the package's own TypeScript can backtrack catastrophically (ReDoS): every `.ts` file
 * it ships (its package.json `files` under schemas/ and scripts/): regular-expression literals,
 * and `RegExp(...)` / `new RegExp(...)` whose pattern is constant (string literals, templates, `String.raw`,
 * `+`, and `const`s of the same file made of those). Any other `RegExp(...)` is dynamic: each file holding
 * one is listed in DYNAMIC_PATTERNS with why its patterns are no risk, so a new dynamic site fails here
 * until someone has reviewed it. recheck (its native backend) must call each pattern safe, that is, matching in
 * time linear in the input; first, recheck itself is shown to catch an exponential pattern. The patterns are found
 * by test/support/redosFinding.ts, checked by test/support/redosCheck.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, filesUnder, parse, regexesOf, rel } from './support/redosFinding.js';
import { type Pattern, diagnose, expectSafe, grouped, nameOf } from './support/redosCheck.js';

/**
 * Files whose `RegExp(...)` calls build a pattern at run time, reviewed: how many such calls each has, and why
 * they are no risk. A file not listed here, or more calls than listed, fails the test.
 */
const DYNAMIC_PATTERNS: Readonly<Record<string, { readonly sites: number; readonly reason: string }>> = {
  'schemas/scrape/judge.ts': {
    sites: 1,
    reason:
      "the scrape oracle builds each line pattern itself (schemas/scrape/serving.ts): constant text, escaped option values, anchored at the line start, one `.*` before a literal or an optional group; the lines matched are a record's, each bounded by the reader",
  },
  'schemas/codeRules/pathPatterns.ts': {
    sites: 1,
    reason:
      'the validator compiles each includePaths/excludePaths pattern of a request only to learn whether it is valid; the RegExp is dropped, never run, so a hostile pattern costs no more than its length',
  },
  'schemas/reasons.ts': {
    sites: 1,
    reason:
      "the reasons read the definitions as data and compile their `pattern` keywords, the same patterns the generated validators run (checked in b below); a request's data is only ever matched, never compiled",
  },
  'schemas/crawl/rules.ts': {
    sites: 1,
    reason:
      "the crawl oracle's default matcher runs includePaths/excludePaths with RegExp on a site model's addresses, for tests that choose both; whoever judges a caller's patterns passes a linear-time matcher instead, as the reference server's crawler does with pathPattern.ts",
  },
  'scripts/server/pathPattern.ts': {
    sites: 1,
    reason:
      "the reference server runs a crawl's includePaths/excludePaths on its own linear-time matcher within a step budget; only each single character class or set (`[^a-z]`, `\\d`, `.`) becomes a RegExp, tested on one UTF-16 code unit, where nothing can backtrack",
  },
  'scripts/contract/generation/arbitrary.ts': {
    sites: 1,
    reason:
      "fast-check's stringMatching generates strings from the package's own schema `pattern`s (checked here among the generated JSON Schemas); it parses the pattern, never matches with it",
  },
  'scripts/contract/wire/redact.ts': {
    sites: 2,
    reason:
      "the spellings of the run's own secrets, each regex-escaped, as one alternation of literals (with a one-character look-around for a short one); and the run's own addresses, each regex-escaped, as another: nothing to backtrack into but the alternatives, so the work is linear in the text cleaned for a given run",
  },
  'scripts/cli/config.ts': {
    sites: 1,
    reason:
      "the name of one of the command's own options (letters and hyphens, from its option table) after a literal `--`, with one lookahead for a character that would continue it: no quantifier, linear",
  },
  'scripts/contract/spec/operations.ts': {
    sites: 1,
    reason:
      "the path template of one of the package's own operations, regex-escaped, each `{param}` as `[^/]+`, anchored: literal text and `[^/]+` runs separated by `/`, linear",
  },
};

// --- a: the package's TypeScript -------------------------------------------------------------------------

/**
 * The sources the package ships (package.json `files`, its entries under schemas/ and scripts/): what runs on a
 * user's input and on a target's answers. The dev tooling it does not ship (the generator in scripts/emit/, the
 * bench, the load script) runs only on the repository's own files and on its own output: a slow pattern there
 * would cost a developer's command time, and no input from outside reaches it. Its patterns took recheck some 14 s
 * of this file's 23.
 */
const SHIPPED_SOURCES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files.filter((entry) =>
  /^(schemas|scripts)(\/|$)/.test(entry),
);
const SOURCE_FILES = SHIPPED_SOURCES.flatMap((entry) => (entry.endsWith('.ts') ? [join(ROOT, entry)] : filesUnder(entry, '.ts')))
  .sort()
  .map(parse);
const sourceScan = SOURCE_FILES.map(regexesOf);
const SOURCE_FOUND = sourceScan.flatMap((scan) => scan.found);
const SOURCE_DYNAMIC = sourceScan.flatMap((scan) => scan.dynamic);

// ---------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------

const SOURCE_PATTERNS = grouped(SOURCE_FOUND);

it('recheck itself works: ^(a+)+$ is exponential, and the assertion fails on it, with the attack string', async () => {
  const probe: Pattern = { source: '^(a+)+$', flags: '', at: ['probe'] };
  const diagnosis = await diagnose(probe.source, probe.flags);
  expect(diagnosis.status).toBe('vulnerable');
  expect(diagnosis.status === 'vulnerable' && diagnosis.complexity.type).toBe('exponential');
  await expect(expectSafe(probe)).rejects.toThrow(/probe: \/\^\(a\+\)\+\$\/ is vulnerable: exponential .*Attack string: 'a'/);
});

describe("the package's TypeScript (what it ships of schemas/ and scripts/)", () => {
  const patterns = SOURCE_PATTERNS;

  it('finds the regexes, e.g. the IPv4 address of a crawl URL, in every shipped folder and in no dev tool', () => {
    expect(SOURCE_FILES.length).toBeGreaterThan(50);
    expect(patterns.length).toBeGreaterThan(20);
    const at = (source: string, flags: string) => patterns.find((p) => p.source === source && p.flags === flags)?.at ?? [];
    expect(at(String.raw`^\d{1,3}(?:\.\d{1,3}){3}$`, '')).toEqual([expect.stringMatching(/^schemas\/shared\/crawlUrl\.ts:\d+$/)]);
    const folders = new Set(SOURCE_FILES.map((file) => rel(file.fileName).split('/').slice(0, 2).join('/')));
    for (const shipped of ['schemas/shared', 'scripts/cli', 'scripts/contract', 'scripts/server', 'scripts/site', 'scripts/proxy']) {
      expect(folders, shipped).toContain(shipped);
    }
    for (const tool of ['scripts/emit', 'scripts/bench', 'scripts/load', 'scripts/generate.ts', 'scripts/bench.ts']) {
      expect(folders, tool).not.toContain(tool);
    }
  });

  it('every dynamic RegExp(...) is in a reviewed file (DYNAMIC_PATTERNS), as many as reviewed', () => {
    expect(SOURCE_DYNAMIC.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const files = [...new Set([...SOURCE_DYNAMIC.map((d) => d.file), ...Object.keys(DYNAMIC_PATTERNS)])].sort();
    for (const file of files) {
      const sites = SOURCE_DYNAMIC.filter((d) => d.file === file);
      const reviewed = DYNAMIC_PATTERNS[file]?.sites ?? 0;
      const list = sites.map((d) => `  ${d.file}:${d.line}: ${d.code}`).join('\n');
      if (sites.length > reviewed) {
        problems.push(
          `${file} builds ${sites.length} regular expression(s) at run time, ${reviewed} reviewed:\n${list}\n` +
            'A dynamic pattern cannot be checked here: review where its pattern and its input come from (can a user ' +
            'choose either?), then add or update the file in DYNAMIC_PATTERNS with the reason, or make the pattern constant.',
        );
      } else if (sites.length < reviewed) {
        problems.push(
          `${file}: DYNAMIC_PATTERNS reviewed ${reviewed} dynamic RegExp(...), the file has ${sites.length}; update the entry${list ? `:\n${list}` : ''}`,
        );
      }
    }
    expect(problems.join('\n\n'), problems.join('\n\n')).toBe('');
  });

  it.each(patterns.map((p) => [nameOf(p), p] as const))('%s', async (_, pattern) => {
    await expectSafe(pattern);
  });
});
