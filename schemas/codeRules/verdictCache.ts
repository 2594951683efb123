/**
 * Verdicts kept by the text they were given for (a path pattern, a JSON Schema's JSON text), at most `capacity` of
 * them: the cache is emptied when it is full, so what hostile texts make it hold has a fixed bound.
 *
 * Why not a plain Map by text. A text to look up is most often a fresh string, just parsed from a body, and a Map
 * hashes a fresh string character by character before it can look: some 1.5 ns a character on the machine
 * docs/speed.md names, five times what the lookup itself costs past a few dozen characters, and ten times what
 * comparing two strings costs. So a text longer than SHORT_TEXT is kept under a key made of its length and a few of
 * its characters, and the text kept there is compared with it whole (a native comparison). Two texts with one key
 * keep only the later one's verdict: the other is judged again when it comes back, which costs time, never a wrong
 * verdict.
 */
const SHORT_TEXT = 64;
/** Characters read into a long text's key, spread from its first to its last. */
const KEY_SAMPLES = 8;

export class VerdictCache<V> {
  private readonly short = new Map<string, V>();
  private readonly long = new Map<number, { readonly text: string; readonly verdict: V }>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.short.size + this.long.size;
  }

  /** The verdict kept for `text`, or undefined. */
  get(text: string): V | undefined {
    if (text.length <= SHORT_TEXT) return this.short.get(text);
    const kept = this.long.get(keyOf(text));
    return kept !== undefined && kept.text === text ? kept.verdict : undefined;
  }

  /** Keeps `verdict` for `text`, after emptying the cache if it is full. */
  set(text: string, verdict: V): void {
    if (this.size >= this.capacity) this.clear();
    if (text.length <= SHORT_TEXT) this.short.set(text, verdict);
    else this.long.set(keyOf(text), { text, verdict });
  }

  clear(): void {
    this.short.clear();
    this.long.clear();
  }
}

/** A long text's key: its length and KEY_SAMPLES of its characters, mixed into a small integer (a Map key V8 does not box). */
function keyOf(text: string): number {
  const last = text.length - 1;
  let key = text.length;
  for (let k = 0; k < KEY_SAMPLES; k++) key = (Math.imul(key, 31) + text.charCodeAt(((last * k) / (KEY_SAMPLES - 1)) | 0)) | 0;
  return key & 0x3fffffff;
}
