/**
 * The cache of verdicts by text (schemas/codeRules/verdictCache.ts): long texts that share a key (same length, same
 * characters where the key reads them) each keep their own verdict, a few per key at most, and the cache is emptied
 * when it is full.
 */
import { describe, expect, it } from 'vitest';
import { VerdictCache } from '../schemas/codeRules/verdictCache.js';

/** Texts of 100 characters that differ only at position 5, which the key of a 100-character text does not read. */
const sharingKey = (n: number) => Array.from({ length: n }, (_, i) => `${'a'.repeat(5)}${String.fromCharCode(0x41 + i)}${'a'.repeat(94)}`);

describe('VerdictCache', () => {
  it('keeps the verdict of each text sharing a key, up to four; past that the oldest is forgotten', () => {
    const cache = new VerdictCache<number>(100);
    const texts = sharingKey(6);
    texts.forEach((text, i) => cache.set(text, i));
    expect(texts.map((text) => cache.get(text))).toEqual([undefined, undefined, 2, 3, 4, 5]);
    expect(cache.size).toBe(4);
    cache.set(texts[5]!, 50);
    expect(cache.get(texts[5]!)).toBe(50);
    expect(cache.size).toBe(4);
  });

  it('answers nothing for a text it was not given, short or long', () => {
    const cache = new VerdictCache<number>(100);
    const [kept, other] = sharingKey(2);
    cache.set(kept!, 1);
    cache.set('short', 2);
    expect([cache.get(other!), cache.get('shorT'), cache.get(kept!), cache.get('short')]).toEqual([undefined, undefined, 1, 2]);
  });

  it('is emptied when full', () => {
    const cache = new VerdictCache<number>(3);
    ['a', 'b', 'c'].forEach((text, i) => cache.set(text, i));
    cache.set('d', 3);
    expect([cache.size, cache.get('a'), cache.get('d')]).toEqual([1, undefined, 3]);
  });
});
