/**
 * Things grouped by a key, each group keeping its first few members and counting all of them: what a report
 * shows of many problems of one kind (the first few, and how many). A target chooses how many problems its
 * answer holds (millions of broken records in a 16 MiB answer, 80,000 pages of another site in a crawl), so
 * the work is linear in what is added and the memory bounded by `keep` per group, however many that is: a
 * member past the first `keep` of its group is counted, and not even made.
 */
export interface Group<T> {
  readonly key: string;
  /** The first members added, at most `keep`, in the order they were added. */
  readonly first: readonly T[];
  /** How many were added, the first included. */
  readonly count: number;
}

export class Tally<T> {
  private readonly groups = new Map<string, { key: string; first: T[]; count: number }>();

  constructor(private readonly keep: number) {}

  /** Counts one more member of `key`'s group; `make` makes it, only when it is among the first `keep`. */
  add(key: string, make: () => T): void {
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { key, first: [], count: 0 };
      this.groups.set(key, group);
    }
    group.count += 1;
    if (group.first.length < this.keep) group.first.push(make());
  }

  /** The group of `key` (empty when nothing was added to it). */
  group(key: string): Group<T> {
    return this.groups.get(key) ?? { key, first: [], count: 0 };
  }

  /** Every group, in the order its first member was added. */
  all(): Group<T>[] {
    return [...this.groups.values()];
  }
}
