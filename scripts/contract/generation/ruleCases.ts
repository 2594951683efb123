/**
 * Every rule of the spec from both sides: for each case a minimal valid body, a minimal invalid body, and
 * the one issue `validate` must report for the invalid body (its path, rule id and message).
 *
 * Scrape option rules are written once, relative to a set of scrape options, and placed wherever scrape
 * options stand: a `ScrapeOptions` body itself (`$`), a crawl's `scrapeOptions` (`$.scrapeOptions`) and a
 * batch scrape's top level (`$`). Request rules are written for their request definition directly.
 */
import type { RuleCase } from './ruleCases/ruleCase.js';
import { LOCATION_CASES, REQUEST_CASES, STATUS_CASES } from './ruleCases/requestCases.js';
import { placed } from './ruleCases/placement.js';
import { OPTION_CASES } from './ruleCases/scrapeOptionCases.js';
import { OPTION_CASES_2026, REQUEST_CASES_2026 } from './ruleCases/serviceCases2026.js';

export type { ExpectedIssue, RuleCase, RuleKind } from './ruleCases/ruleCase.js';

export const RULE_CASES: readonly RuleCase[] = [
  ...placed([...OPTION_CASES, ...OPTION_CASES_2026]),
  ...REQUEST_CASES,
  ...REQUEST_CASES_2026,
  ...STATUS_CASES,
  ...LOCATION_CASES,
];
