/**
 * Polling a job's status until it has ended (its `status` is no longer `scraping`), as the tests that drive
 * the reference server do: `read` gives one status answer; past `timeoutMs` the wait fails, naming `what`.
 */
export async function untilEnded<T extends { readonly status?: unknown }>(
  read: () => Promise<T>,
  what: string,
  { timeoutMs, everyMs = 10 }: { readonly timeoutMs: number; readonly everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let answer = await read(); ; answer = await read()) {
    if (answer.status !== 'scraping') return answer;
    if (Date.now() > deadline) throw new Error(`${what} still scraping after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
