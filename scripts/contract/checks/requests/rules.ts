/**
 * One check per cross-field rule and version (`v2.rule.changeTrackingNeedsMarkdown`): each rule case's
 * invalid crawl or batch body must be refused. Plain schema limits that the cases also cover are named after
 * the field and keyword (`v2.rule.timeout.maximum`). A rule the interface states (v2 `timeout` at most
 * 300000, v1 change tracking needing markdown) is held at interface level: refused, a 4xx and no job; the
 * others (the service's: delay at most 60, RE2 path patterns, ...) at service level; the service answers 400
 * with the error envelope either way.
 */
import { RULES } from '../../../../schemas/annotations.js';
import { definitions, type Version } from '../../../../schemas/registry.js';
import type { RuleSpec } from '../../../../schemas/rule.js';
import { validate, type SchemaName } from '../../../../schemas/validate.js';
import { startRefused } from '../../engine/baseline.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { Citation } from '../../spec/checkInfo.js';
import { refusal } from '../../engine/expect.js';
import { levelOf, lowest, type Level } from '../../spec/levels.js';
import { RULE_CASES, type RuleCase } from '../../generation/ruleCases.js';
import { RULE_SOURCES } from '#generated/contract/ruleSources.js';
import type { JobKind } from '../../spec/operations.js';

const SCHEMA_KEYWORDS = new Set([
  'type',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'format',
  'pattern',
]);

const KIND_OF: Record<string, JobKind> = { CrawlRequest: 'crawl', BatchScrapeRequest: 'batch' };

/** The last name in a JSON path, e.g. `formats` in `$.scrapeOptions.formats[0]` (`body` for `$`). */
function lastName(path: string): string {
  // Tried only where a name can start (`(?<![\w$])`), so the search stays linear in the path's length.
  return /(?<![\w$])([A-Za-z_$][\w$]*)(?:\[\d+\])*$/.exec(path)?.[1] ?? 'body';
}

/** The check's name part for a case: the rule id, or `field.keyword` for a plain schema limit. */
export function ruleName(c: RuleCase): string {
  const issue = c.issues[0]!;
  return SCHEMA_KEYWORDS.has(issue.rule) ? `${lastName(issue.path)}.${issue.rule}` : issue.rule;
}

const moved = (body: unknown, siteUrl: string) =>
  JSON.parse(JSON.stringify(body).replaceAll('"https://example.com', `"${siteUrl}`)) as unknown;

/**
 * A case's invalid body and its valid base (baseline.ts), `https://example.com...` in them pointed at the run's
 * site when the invalid body still breaks its rule there and the base stays valid; else both as written.
 */
function onSite(c: RuleCase, siteUrl: string): { invalid: unknown; base: unknown } {
  const schema = `${c.version}/${c.schema}` as SchemaName;
  const invalid = moved(c.invalid, siteUrl);
  const base = moved(c.valid, siteUrl);
  const result = validate(schema, invalid);
  const rules = result.valid ? [] : result.errors.map((e) => e.rule);
  return c.issues.every((i) => rules.includes(i.rule)) && validate(schema, base).valid
    ? { invalid, base }
    : { invalid: c.invalid, base: c.valid };
}

/** Where the case's rule comes from, as `validate` tells it. */
function caseSource(c: RuleCase): string {
  const result = validate(`${c.version}/${c.schema}` as SchemaName, c.invalid);
  const rule = c.issues[0]!.rule;
  return (result.valid ? undefined : result.errors.find((e) => e.rule === rule)?.source) ?? 'service';
}

/** The rule cases of `version`'s crawl and batch requests, by the name of the check that holds them. */
function ruleCaseGroups(version: Version): Map<string, RuleCase[]> {
  const groups = new Map<string, RuleCase[]>();
  for (const c of RULE_CASES) {
    if (c.version !== version || !(c.schema in KIND_OF)) continue;
    const name = `${version}.rule.${ruleName(c)}`;
    groups.set(name, [...(groups.get(name) ?? []), c]);
  }
  return groups;
}

/**
 * Per rule check, where its cases' rules come from (each source once, in the order of the cases), as `validate`
 * tells it: what generated/contract/ruleSources.js holds (scripts/emit/ruleSources.ts writes it). Telling it
 * validates every case, some 0.25 s of CPU: at generation, not at the start of every run.
 */
export function ruleCheckSources(version: Version): Record<string, readonly string[]> {
  return Object.fromEntries([...ruleCaseGroups(version)].map(([name, cases]) => [name, [...new Set(cases.map(caseSource))]]));
}

/** Per version, the names each rule is stated with (`RuleSpec.stated`), found once in the definitions' rule marks. */
const statedByVersion = new Map<Version, ReadonlyMap<string, readonly string[] | undefined>>();

/** The names a rule of `version` is stated with: the first rule mark of that id that has them. */
function statedNames(version: Version, id: string): readonly string[] | undefined {
  let stated = statedByVersion.get(version);
  if (stated === undefined) {
    const found = new Map<string, readonly string[] | undefined>();
    JSON.stringify([...definitions[version].values()], (key, value: unknown) => {
      if (key === RULES && Array.isArray(value))
        for (const rule of value as RuleSpec[]) if (found.get(rule.id) === undefined) found.set(rule.id, rule.stated);
      return value;
    });
    statedByVersion.set(version, (stated = found));
  }
  return stated.get(id);
}

/** A rule check's cases and where its rule comes from: the same in every run, so found once per version. */
interface RuleGroup {
  readonly name: string;
  readonly cases: readonly RuleCase[];
  readonly level: Level;
  readonly cites: readonly Citation[];
}
const groupsByVersion = new Map<Version, readonly RuleGroup[]>();

/**
 * The sources the groups read: the generated table. The generator puts the table it is writing in its place
 * first (scripts/emit/ruleSources.ts), so that generated/contract/checks.md, written from these checks in the
 * same run, agrees with it, also when a rule case is new.
 */
let sourceTable: Readonly<Record<string, readonly string[] | undefined>> = RULE_SOURCES;
export function useRuleSources(table: Readonly<Record<string, readonly string[]>>): void {
  sourceTable = table;
  groupsByVersion.clear();
}

/** The rule checks' cases of `version`, grouped by check, with their level and citations: found once per version. */
function ruleGroups(version: Version): readonly RuleGroup[] {
  const known = groupsByVersion.get(version);
  if (known !== undefined) return known;
  const found = [...ruleCaseGroups(version)].map(([name, cases]) => {
    const sources = sourceTable[name];
    if (sources === undefined) throw new Error(`generated/contract/ruleSources.js has no ${name}: run npm run generate`);
    const level = sources.map(levelOf).reduce<Level>(lowest, 'service');
    const rule = name.slice(`${version}.rule.`.length);
    // An interface citation names what the section states the rule with (else the fields); the service's, the rule.
    const fields = statedNames(version, rule) ?? [...new Set(cases.map((c) => lastName(c.issues[0]!.path)))];
    const cites: Citation[] = sources.map((source) => ({ source, names: source === 'service' ? [rule] : fields }));
    return { name, cases, level, cites };
  });
  groupsByVersion.set(version, found);
  return found;
}

export function ruleChecks(version: Version): Check[] {
  return ruleGroups(version).map(({ name, cases, level, cites }) => {
    const rule = name.slice(`${version}.rule.`.length);
    return simpleCheck(
      {
        name,
        level,
        proves: `Each ${version} request breaking ${rule} (${cases.length} case${cases.length === 1 ? '' : 's'}) is refused and starts no job, where the same request without the break is accepted${level === 'interface' ? ' (the interface states the rule)' : ''}; the service answers 400 with the error envelope.`,
        cites,
        // Its refusals are held against bases that start jobs (baseline.ts).
        startsJob: true,
        cost: cases.length * 2 * START,
      },
      async (attempt) => {
        for (const c of cases) {
          const { invalid, base } = onSite(c, attempt.options.siteUrl);
          const what = `${c.title}; ${c.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
          const expectation = refusal(version, `${version}/${c.schema}` as SchemaName, invalid, what);
          await startRefused(attempt, version, KIND_OF[c.schema]!, { json: invalid }, expectation, base);
        }
      },
    );
  });
}
