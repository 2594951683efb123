/**
 * An implementation that follows the interface to the letter and refuses (400, the error envelope) every start
 * holding something the interface does not list (test/support/interfaceStrictServer.ts) is conformant at the
 * default level: the kit's bases, generated valid bodies and fields sent alone hold only what the interface lists
 * there, so no check fails and none rests on a refused base. At service level it fails the checks that send the
 * service's extensions, and only those; the refusal checks whose bases carry them cannot tell, and say so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exitCode, type ContractReport } from '../scripts/contract/index.js';
import { interfaceStrict } from './support/interfaceStrictServer.js';
import { runAgainst, summary } from './support/variantRuns.js';

/** The checks that send request bodies: starts (generated, fields alone, enum values), rule cases, batch URL lists. */
const BODY_CHECKS = ['*.start.*', '*.rule.*', '*.batch.invalidURLs.*', 'json.malformed'];

/** The checks that send the service's extensions as bodies that must be accepted: each fails at service level. */
const SENDING_EXTENSIONS = [
  ...['v1', 'v2'].flatMap((v) => ['crawl', 'batch'].map((k) => `${v}.${k}.start.valid.service`)),
  // The action kinds the interface names (write, press, executeJavascript), with the field the service gives each.
  ...['v1', 'v2'].flatMap((v) => ['crawl', 'batch'].map((k) => `${v}.${k}.start.enumValue`)),
];

const REFUSED_BASE = /the same body without the breaking change was refused too \(400: Not in the interface: /;

describe('a target that refuses every key the interface does not list', () => {
  let atInterface: ContractReport;
  let atService: ContractReport;
  beforeAll(async () => {
    [atInterface, atService] = await Promise.all([
      runAgainst(interfaceStrict, 'interface', 'notBehaviour', BODY_CHECKS),
      runAgainst(interfaceStrict, 'service', 'notBehaviour', BODY_CHECKS),
    ]);
  }, 600_000);

  it('is conformant at interface level: no check fails, none is inconclusive, no pass rests on a refused base', () => {
    const inScope = atInterface.checks.filter((c) => c.inScope && c.status !== 'skipped');
    expect(inScope.length).toBeGreaterThan(30);
    expect(exitCode(atInterface), summary(atInterface)).toBe(0);
    expect(inScope.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status}`)).toEqual([]);
    expect(inScope.filter((c) => (c.notes ?? []).some((n) => REFUSED_BASE.test(n))).map((c) => c.name)).toEqual([]);
    // The extensions are still tried, as differences from the service.
    for (const name of SENDING_EXTENSIONS.filter((n) => n.endsWith('.service')))
      expect(atInterface.checks.find((c) => c.name === name)?.status, name).toBe('differs');
  });

  it('fails the checks that send extensions at service level, and only those', () => {
    expect(exitCode(atService)).toBe(1);
    const failing = atService.checks.filter((c) => c.status === 'fail').map((c) => c.name);
    expect(failing.sort(), summary(atService)).toEqual([...SENDING_EXTENSIONS].sort());
    // A refusal held against a base with an extension shows nothing: inconclusive, saying so.
    for (const check of atService.checks.filter((c) => c.status === 'inconclusive')) expect(check.detail, check.name).toMatch(REFUSED_BASE);
  });
});
