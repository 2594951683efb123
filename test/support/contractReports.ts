/**
 * What the test files of the kit against its targets (test/contractReference, contractBudget, contractDeviating,
 * contractHostileTarget and contractPieces .test.ts) share: the token they give the kit, the seed of their runs,
 * and how they read a report (its checks by name, the failing ones).
 */
import { type CheckResult, type ContractReport } from '../../scripts/contract/report/report.js';

export const TOKEN = 'contract-test-secret-token';

export const SEED = 42;

export const byName = (report: ContractReport) => new Map(report.checks.map((c) => [c.name, c]));
export const failing = (report: ContractReport): CheckResult[] => report.checks.filter((c) => c.status === 'fail');
