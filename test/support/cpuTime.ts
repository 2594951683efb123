/**
 * CPU time, not the clock, for the tests that bound what a piece of work costs. On a shared machine the clock also
 * counts the time other processes held the cores; CPU time counts this process's own work only (user and system,
 * all of its threads, the garbage collector's included), so a bound on it holds however loaded the machine is.
 */
/** This process's CPU time so far, in milliseconds. */
export const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** What `work` returns, and the CPU milliseconds it took. */
export function withCpuMs<T>(work: () => T): [T, number] {
  const started = cpuNow();
  const result = work();
  return [result, cpuNow() - started];
}

/**
 * The most CPU milliseconds one turn of the event loop took while `work` ran (a watcher runs between turns): how
 * long the work held the loop, whatever else the machine was doing.
 */
export async function longestTurn(work: () => Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = cpuNow();
  let watching = true;
  const watch = () => {
    const now = cpuNow();
    worst = Math.max(worst, now - last);
    last = now;
    if (watching) setImmediate(watch);
  };
  setImmediate(watch);
  try {
    await work();
  } finally {
    // One more turn: the watcher measures the stretch that ended the work (all of it, if it never yielded).
    await new Promise((resolve) => setImmediate(resolve));
    watching = false;
  }
  return worst;
}
