export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Retries an assertion until it passes or the time runs out, then rethrows its last failure.
 * For asynchronous outcomes (an event consumed, a delivery made) instead of sleeping.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const interval = options.intervalMs ?? 50;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  }
}
