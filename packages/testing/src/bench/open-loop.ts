const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Open loop: `start(i)` is called at begin + i / rate whatever the earlier calls are doing, so a slow system cannot
 * hold the load back (no coordinated omission). Resolves when every call has.
 */
export async function openLoop(rate: number, count: number, start: (i: number) => Promise<void>): Promise<void> {
  const begin = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const wait = begin + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(start(i));
  }
  await Promise.all(pending);
}
