import { Batcher } from '../src/common/batcher';

/** A batcher whose batches finish only when the test releases them, recording what each batch held. */
function controlled(concurrency: number) {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  const batcher = new Batcher<string, string>(
    async (items) => {
      batches.push(items);
      await new Promise<void>((resolve) => releases.push(resolve));
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((item) => item.toUpperCase());
    },
    { concurrency, maxSize: 3, key: (item) => item.split(':')[0] ?? item },
  );
  const releaseAll = async (): Promise<void> => {
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batcher, batches, releaseAll };
}

describe('Batcher', () => {
  it('runs a call at once when idle, and what queues meanwhile together, at most maxSize and one item per key', async () => {
    const { batcher, batches, releaseAll } = controlled(1);
    const results = ['a', 'b', 'c', 'a:again', 'd', 'e'].map((item) => batcher.run(item));
    expect(batches).toEqual([['a']]);
    await releaseAll();
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'A:AGAIN', 'D', 'E']);
    expect(batches).toEqual([['a'], ['b', 'c', 'a:again'], ['d', 'e']]);
  });

  it('keeps a second item of a key for a later batch', async () => {
    const { batcher, batches, releaseAll } = controlled(1);
    const results = ['x', 'y', 'y:2', 'y:3'].map((item) => batcher.run(item));
    await releaseAll();
    await Promise.all(results);
    expect(batches).toEqual([['x'], ['y'], ['y:2'], ['y:3']]);
  });

  it('runs batches side by side, but never two items of one key at once', async () => {
    const { batcher, batches, releaseAll } = controlled(2);
    const results = ['y', 'y:2', 'z'].map((item) => batcher.run(item));
    expect(batches).toEqual([['y'], ['z']]);
    await releaseAll();
    await Promise.all(results);
    expect(batches).toEqual([['y'], ['z'], ['y:2']]);
  });

  it('fails only the failing item of a batch that fails', async () => {
    const { batcher, releaseAll } = controlled(1);
    const first = batcher.run('a');
    const others = ['b', 'bad', 'c'].map((item) => batcher.run(item).catch((error: Error) => error.message));
    await releaseAll();
    expect(await first).toBe('A');
    expect(await Promise.all(others)).toEqual(['B', 'bad item', 'C']);
  });
});
