/**
 * What a user who mistyped a name most likely meant ("did you mean"). The edit distance is written here: leven
 * and js-levenshtein are in node_modules only as dependencies of the lint tools (@redocly, @stoplight), not of
 * the package, and this one stops as soon as the distance passes the limit, so a long mistyped word costs little.
 */

/** The edit distance of `a` and `b` (insertions, deletions, substitutions), or `limit + 1` once it exceeds `limit`. */
export function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidates at the smallest edit distance from `word`, if it is at most `limit` (a third of its length, up to 3). */
export function closest(word: string, candidates: readonly string[], limit = Math.min(3, Math.floor(word.length / 3))): string[] {
  let best = limit + 1;
  let found: string[] = [];
  for (const candidate of candidates) {
    const d = distance(word, candidate, Math.min(limit, best));
    if (d < best) [best, found] = [d, [candidate]];
    else if (d === best && d <= limit) found.push(candidate);
  }
  return best <= limit ? found : [];
}

/**
 * A pattern of dotted names (`--only`, `--skip`) that names something, for one that names nothing: each segment
 * that is no segment of any name (and no glob) replaced by the closest one (`v2.crawl.behavior.*` →
 * `v2.crawl.behaviour.*`); a single word so corrected stands for the names holding it (`behavior` →
 * `*.behaviour.*`). Undefined when no such pattern names anything.
 */
export function closestPattern(
  pattern: string,
  names: readonly string[],
  matches: (pattern: string, name: string) => boolean,
): string | undefined {
  const segments = [...new Set(names.flatMap((name) => name.split('.')))];
  const known = new Set(segments);
  const fixed = pattern
    .split('.')
    .map((segment) => (segment.includes('*') || known.has(segment) ? segment : (closest(segment, segments)[0] ?? segment)))
    .join('.');
  const candidates = fixed.includes('.') || fixed.includes('*') ? [fixed] : [`*.${fixed}.*`, `*.${fixed}`, `${fixed}.*`];
  return candidates.find((candidate) => candidate !== pattern && names.some((name) => matches(candidate, name)));
}
