/**
 * The country code list against an independent oracle (the ICU region names Node ships), and the pattern
 * built from it against the list, exhaustively over every two-letter string, as plain and as `u` regexes.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { COUNTRY_PATTERN, COUNTRY_RULE_MESSAGE, GENERIC_LOCATIONS, ISO_COUNTRY_CODES } from '../schemas/shared/countries.js';
import { withCpuMs } from './support/cpuTime.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALL_PAIRS = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));
const CODES = new Set(ISO_COUNTRY_CODES);

/** `ab` → `Ab`, `us-generic` → `Us-GeNeRiC`. */
const mixedCase = (s: string) => [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
/** `ab` → `aB`. */
const otherMixedCase = (s: string) => [...s].map((c, i) => (i % 2 === 0 ? c.toLowerCase() : c.toUpperCase())).join('');
const casings = (s: string) => [s.toUpperCase(), s.toLowerCase(), mixedCase(s), otherMixedCase(s)];

describe('ISO_COUNTRY_CODES', () => {
  it('has 250 unique, upper-case, two-letter entries, sorted', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(250);
    expect(CODES.size).toBe(250);
    for (const code of ISO_COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect([...ISO_COUNTRY_CODES].sort()).toEqual(ISO_COUNTRY_CODES);
  });

  it('includes XK, GB, US and DE; excludes UK and unassigned codes', () => {
    for (const code of ['XK', 'GB', 'US', 'DE']) expect(CODES.has(code), code).toBe(true);
    for (const code of ['UK', 'ZZ', 'AA', 'QM', 'EU', 'UN']) expect(CODES.has(code), code).toBe(false);
  });

  it('every entry but XK is a region ICU can name', () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region' });
    const unnamed = ISO_COUNTRY_CODES.filter((code) => code !== 'XK' && regions.of(code) === code);
    expect(unnamed).toEqual([]);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ISO_COUNTRY_CODES)).toBe(true);
  });
});

describe('GENERIC_LOCATIONS and COUNTRY_RULE_MESSAGE', () => {
  it('are the service values', () => {
    expect(GENERIC_LOCATIONS).toEqual(['us-generic', 'us-whitelist']);
    expect(COUNTRY_RULE_MESSAGE).toBe('Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.');
  });
});

describe('COUNTRY_PATTERN', () => {
  it('is anchored, ASCII-only and free of lookaround and backreferences', () => {
    expect(COUNTRY_PATTERN.startsWith('^')).toBe(true);
    expect(COUNTRY_PATTERN.endsWith('$')).toBe(true);
    expect(COUNTRY_PATTERN).toMatch(/^[\x20-\x7e]+$/);
    expect(COUNTRY_PATTERN).not.toMatch(/\(\?<?[=!]|\\\d|\\k</);
  });

  for (const [flags, regex] of [
    ['no flags', new RegExp(COUNTRY_PATTERN)],
    ['the u flag', new RegExp(COUNTRY_PATTERN, 'u')],
  ] as const) {
    describe(`compiled with ${flags}`, () => {
      it('accepts every code in upper, lower and mixed case', () => {
        const rejected = ISO_COUNTRY_CODES.flatMap(casings).filter((s) => !regex.test(s));
        expect(rejected).toEqual([]);
      });

      it('accepts the generic values in any case', () => {
        const values = [...GENERIC_LOCATIONS.flatMap(casings), 'US-generic', 'Us-Whitelist', 'us-GENERIC'];
        expect(values.filter((s) => !regex.test(s))).toEqual([]);
      });

      it('rejects near misses', () => {
        const misses = [
          'UK',
          'uk',
          'USA',
          'U',
          ' US',
          'US ',
          'US\n',
          '\nUS',
          'us_generic',
          'us-generics',
          'us-',
          'us-generic-us',
          'generic',
          '',
          'XX',
          'ZZ',
          'ÜS',
          'U\u0053\u0301',
        ];
        expect(misses.filter((s) => regex.test(s))).toEqual([]);
      });

      it('decides every two-letter string, in every case, as the list does', () => {
        const wrong = ALL_PAIRS.flatMap(casings).filter((s) => regex.test(s) !== CODES.has(s.toUpperCase()));
        expect(wrong).toEqual([]);
      });
    });
  }

  it('means the same to a JSON Schema validator', () => {
    const check = new Ajv2020({ strict: true }).compile({ type: 'string', pattern: COUNTRY_PATTERN });
    expect(['de', 'De', 'DE', 'XK', 'US-generic', 'us-whitelist'].filter((s) => !check(s))).toEqual([]);
    expect(['UK', 'USA', 'U', ' US', 'US ', 'us_generic', ''].filter((s) => check(s))).toEqual([]);
  });

  it('answers quickly on long input', () => {
    // CPU time, not the clock: a loaded machine does not lengthen it.
    const [, ms] = withCpuMs(() => {
      for (const s of ['us-'.repeat(1 << 18), 'U'.repeat(1 << 20), `US${'-'.repeat(1 << 20)}`]) {
        expect(new RegExp(COUNTRY_PATTERN, 'u').test(s)).toBe(false);
      }
    });
    expect(ms).toBeLessThan(1000);
  });
});
