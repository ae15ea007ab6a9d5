import { Lanes } from '../src/embedded/lanes';
import type { LogRecord } from '../src/embedded/log-reader';

const record = (position: number, key: string | null): LogRecord => ({
  position: BigInt(position),
  topic: 't',
  key,
  type: 'payment-recorded',
  eventId: `e${position}`,
  source: 's',
  envelope: {},
  createdAt: new Date(),
});

/** A handler whose calls finish when the test says so. */
function gatedHandler() {
  const started: number[] = [];
  const gates = new Map<number, { release: () => void; fail: (error: Error) => void }>();
  const handle = (r: LogRecord): Promise<void> => {
    started.push(Number(r.position));
    return new Promise((resolve, reject) => gates.set(Number(r.position), { release: resolve, fail: reject }));
  };
  return {
    started,
    handle,
    release: (position: number) => gates.get(position)!.release(),
    fail: (position: number) => gates.get(position)!.fail(new Error(`record ${position} failed`)),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

// Two keys that hash to different lanes of 8 (the first expectation below fails otherwise).
const [KEY_A, KEY_B] = ['rental-a', 'rental-b'];

describe('Lanes', () => {
  it('runs other keys while one key waits, keeps one key in order, and saves only the finished prefix', async () => {
    const h = gatedHandler();
    const lanes = new Lanes(8, h.handle, 10n);
    lanes.add(record(11, KEY_A), true);
    lanes.add(record(12, KEY_B), true);
    lanes.add(record(13, KEY_A), true);
    lanes.add(record(14, 'other-topic'), false);
    await tick();
    expect(h.started).toEqual([11, 12]); // 13 waits for 11: same key
    h.release(12);
    await tick();
    expect(lanes.doneThrough).toBe(10n); // 11 is not finished, so nothing after it counts
    h.release(11);
    await tick();
    expect(h.started).toEqual([11, 12, 13]);
    expect(lanes.doneThrough).toBe(12n);
    h.release(13);
    await lanes.settled();
    expect(lanes.doneThrough).toBe(14n);
    expect(lanes.backlog).toBe(0);
  });

  it('stops every lane after a failure and reports it; the failed record stays unfinished', async () => {
    const h = gatedHandler();
    const lanes = new Lanes(8, h.handle, 0n);
    lanes.add(record(1, KEY_A), true);
    lanes.add(record(2, KEY_B), true);
    lanes.add(record(3, KEY_A), true);
    lanes.add(record(4, KEY_B), true);
    await tick();
    h.fail(1);
    h.release(2);
    await lanes.settled();
    expect(h.started).toEqual([1, 2]);
    expect(String(lanes.failure?.error)).toContain('record 1 failed');
    expect(lanes.doneThrough).toBe(0n);
  });
});
