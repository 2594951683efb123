/**
 * Every check of the contract kit says where what it proves comes from, and says it truly: each citation of
 * the interface names a section that exists and fields, values or rules that section states (checked against
 * an oracle transcribed by hand from the interface, test/support/interfaceSections.ts); a check that decides
 * at interface level cites the interface; a service citation names what it relies on.
 */
import { describe, expect, it } from 'vitest';
import { contractChecks } from '../scripts/contract/index.js';
import { INTERFACE_SECTIONS } from './support/interfaceSections.js';

const CHECKS = contractChecks(['v1', 'v2']);

describe('every check cites what it relies on, truly', () => {
  it.each(CHECKS.map((c) => [c.name, c] as const))('%s', (_name, check) => {
    expect(check.proves).toMatch(/^[A-Z`][^]*\.$/);
    expect(check.cites.length).toBeGreaterThan(0);
    for (const cite of check.cites) {
      expect(cite.names.length, `${cite.source} names nothing`).toBeGreaterThan(0);
      if (cite.source === 'service') continue;
      const section = /^interface (§\d+(?:\.\d+)?)$/.exec(cite.source)?.[1];
      expect(section, `"${cite.source}" is no section of the interface`).toBeDefined();
      const stated = INTERFACE_SECTIONS[section!];
      expect(stated, `the interface has no ${section}`).toBeDefined();
      for (const name of cite.names) expect(stated, `${section} does not state ${name}`).toContain(name);
    }
    if (check.level === 'interface') expect(check.cites.some((c) => c.source.startsWith('interface'))).toBe(true);
    else expect(check.cites.every((c) => c.source === 'service')).toBe(true);
  });

  it('a citation of a section that does not state the name is caught', () => {
    expect(INTERFACE_SECTIONS['§2.1']).not.toContain('timeout');
    expect(INTERFACE_SECTIONS['§2.3']).not.toContain('300000');
    expect(INTERFACE_SECTIONS['§4']).not.toContain('delay');
  });
});
