/**
 * The contract kit against the variants of the reference server whose defect is in what a start request is
 * answered (a body accepted that must be refused, or refused that must be accepted; auth; malformed JSON):
 * see test/support/variantRuns.ts for what each run must show. Run on every check but the behaviour ones.
 */
import { BROKEN_SERVERS, isJobVariant } from './support/brokenServers.js';
import { describeVariants } from './support/variantRuns.js';

describeVariants(BROKEN_SERVERS.filter((v) => !isJobVariant(v)).map((v) => ({ ...v, scope: 'notBehaviour' as const })));
