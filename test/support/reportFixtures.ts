/**
 * Contract reports made by hand, for the tests of their renderings (text, JUnit, JSON, HTML): a check and a run
 * with plain defaults, each field given overriding its default.
 */
import { causesOf } from '../../scripts/contract/report/causes.js';
import type { CheckResult, ContractReport } from '../../scripts/contract/report/report.js';

export function check(name: string, over: Partial<CheckResult> = {}): CheckResult {
  return {
    name,
    level: 'interface',
    inScope: true,
    status: 'pass',
    failures: [],
    differences: [],
    requests: 1,
    digest: 'ab'.repeat(32),
    durationMs: 12,
    ...over,
  };
}

/** A report of `over.checks` (one passing check by default); its causes are those of its checks, unless given. */
export function report(over: Partial<ContractReport> = {}): ContractReport {
  const checks = over.checks ?? [check('json.malformed')];
  return {
    target: 'http://127.0.0.1:4000',
    level: 'interface',
    versions: ['v1', 'v2'],
    seed: 7,
    runs: 3,
    maxRequests: 100,
    checks,
    causes: causesOf(checks),
    notImplemented: [],
    diagnoses: [],
    requests: 10,
    durationMs: 1234,
    requestsPerSecond: 8.1,
    unreachable: false,
    jobs: { started: 0, cancelled: 0, notCancelled: [], mayHaveStarted: [] },
    transport: { lost: 0, retried: 0, inconclusive: 0 },
    ...over,
  };
}
