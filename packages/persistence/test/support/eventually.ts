/**
 * Retries an assertion until it passes or the time runs out, then rethrows its last failure: `eventually` of
 * `@storage/testing`, which depends on this package and so cannot serve its tests.
 */
export async function eventually(assertion: () => void | Promise<void>, options: { timeoutMs: number; intervalMs: number }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
  }
}
