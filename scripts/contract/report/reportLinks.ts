/**
 * The report's citations as links: beside each failure's `section`, its `sectionUrl` in the reference the package
 * ships (scripts/reference/citationLink.ts), for the JSON report; the HTML report links the section itself
 * (reporters/html.ts `sectionHtml`).
 */
import { citationLink } from '../../reference/citationLink.js';
import type { CheckResult, ContractReport, Failure } from './report.js';

const withUrl = (failure: Failure): Failure => {
  const sectionUrl = citationLink(failure.section);
  return sectionUrl === undefined ? failure : { ...failure, sectionUrl };
};

/** `report` with a `sectionUrl` beside the section of every failure and difference that cites the reference. */
export const withSectionUrls = (report: ContractReport): ContractReport => ({
  ...report,
  checks: report.checks.map(
    (check): CheckResult => ({ ...check, failures: check.failures.map(withUrl), differences: check.differences.map(withUrl) }),
  ),
});
