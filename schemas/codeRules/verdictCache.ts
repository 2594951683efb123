/**
 * Verdicts kept by the text they were given for (a path pattern, a JSON Schema's JSON text), at most `capacity` of
 * them: the cache is emptied when it is full, so what hostile texts make it hold has a fixed bound.
 *
 * Why not a plain Map by text. A text to look up is most often a fresh string, just parsed from a body, and a Map
 * hashes a fresh string character by character before it can look: some 1.5 ns a character on the machine
 * docs/speed.md names, five times what the lookup itself costs past a few dozen characters, and ten times what
 * comparing two strings costs. So a text longer than SHORT_TEXT is kept under a key made of its length and a few of
 * its characters, and the texts kept there are compared with it whole (a native comparison, which stops at the first
 * character that differs). Texts that differ only where the key does not read (two schemas told apart by one
 * field's name, two long patterns by a digit) share a key and are both kept, up to SAME_KEY of them: past that the
 * oldest is forgotten (judged again when it comes back), so that texts made to share a key cost a lookup at most
 * SAME_KEY comparisons.
 */
const SHORT_TEXT = 64;
/** Characters read into a long text's key, spread from its first to its last. */
const KEY_SAMPLES = 8;
/** Long texts kept under one key at most. */
const SAME_KEY = 4;

export class VerdictCache<V> {
  private readonly short = new Map<string, V>();
  /** The long texts by key, each with its verdict. */
  private readonly long = new Map<number, { readonly text: string; verdict: V }[]>();
  private longTexts = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.short.size + this.longTexts;
  }

  /** The verdict kept for `text`, or undefined. */
  get(text: string): V | undefined {
    if (text.length <= SHORT_TEXT) return this.short.get(text);
    const kept = this.long.get(keyOf(text));
    if (kept !== undefined) for (let i = 0; i < kept.length; i++) if (kept[i]!.text === text) return kept[i]!.verdict;
    return undefined;
  }

  /** Keeps `verdict` for `text`, after emptying the cache if it is full. */
  set(text: string, verdict: V): void {
    if (this.size >= this.capacity) this.clear();
    if (text.length <= SHORT_TEXT) {
      this.short.set(text, verdict);
      return;
    }
    const key = keyOf(text);
    const kept = this.long.get(key);
    const same = kept?.find((entry) => entry.text === text);
    if (same !== undefined) same.verdict = verdict;
    else if (kept === undefined) {
      this.long.set(key, [{ text, verdict }]);
      this.longTexts += 1;
    } else {
      if (kept.length >= SAME_KEY) kept.shift();
      else this.longTexts += 1;
      kept.push({ text, verdict });
    }
  }

  clear(): void {
    this.short.clear();
    this.long.clear();
    this.longTexts = 0;
  }
}

/** A long text's key: its length and KEY_SAMPLES of its characters, mixed into a small integer (a Map key V8 does not box). */
function keyOf(text: string): number {
  const last = text.length - 1;
  let key = text.length;
  for (let k = 0; k < KEY_SAMPLES; k++) key = (Math.imul(key, 31) + text.charCodeAt(((last * k) / (KEY_SAMPLES - 1)) | 0)) | 0;
  return key & 0x3fffffff;
}
