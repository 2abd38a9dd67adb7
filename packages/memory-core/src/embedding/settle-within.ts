/**
 * Waits until every promise has settled or `timeoutMs` has passed, whichever comes first (a
 * closing store gives background work a bounded time to stop). Never rejects.
 */
export async function settleWithin(promises: Iterable<Promise<unknown>>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([Promise.allSettled([...promises]), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
