/**
 * `tasks` run `limit` at a time, their results in order: for tests that make many independent runs (of the kit,
 * of a browser) and must bound what they ask of a shared machine without changing what each proves.
 */
export async function pooled<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
