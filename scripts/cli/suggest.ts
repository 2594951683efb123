/** What a user who mistyped a name most likely meant ("did you mean"). */

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
