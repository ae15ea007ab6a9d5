import { AnnouncedRecords } from '../src/embedded/announced-records';

const payload = (position: number, topic = 'storage.billing.v1'): string =>
  JSON.stringify({
    position: String(position),
    topic,
    key: `rental-${position}`,
    type: 'payment-recorded',
    eventId: `event-${position}`,
    source: 'api',
    createdAt: '2026-11-23T21:14:27.123456+00:00',
    envelope: { eventId: `event-${position}` },
  });

describe('AnnouncedRecords', () => {
  it('hands on the rows that follow the last position without a gap, in order, and keeps those behind a gap', () => {
    const announced = new AnnouncedRecords();
    announced.reading();
    for (const position of [12, 11, 14]) announced.offer(payload(position));
    const taken = announced.take(10n);
    expect(taken.map((record) => record.position)).toEqual([11n, 12n]);
    expect(taken[0]).toMatchObject({ topic: 'storage.billing.v1', key: 'rental-11', eventId: 'event-11', envelope: { eventId: 'event-11' } });
    expect(taken[0].createdAt.toISOString()).toBe('2026-11-23T21:14:27.123Z');
    // 14 waits behind the gap at 13: only a read of the log can tell whether 13 will still commit.
    expect(announced.mustRead).toBe(true);
    expect(announced.take(12n)).toEqual([]);
    announced.offer(payload(13));
    expect(announced.take(12n).map((record) => record.position)).toEqual([13n, 14n]);
    expect(announced.mustRead).toBe(false);
  });

  it('drops rows a read already handed on', () => {
    const announced = new AnnouncedRecords();
    announced.reading();
    announced.offer(payload(5));
    announced.offer(payload(6));
    expect(announced.take(6n)).toEqual([]);
    expect(announced.mustRead).toBe(false);
  });

  it('needs a read after a notification without its row, until the read starts', () => {
    const announced = new AnnouncedRecords();
    expect(announced.mustRead).toBe(true); // a new leader reads from its offset
    announced.reading();
    expect(announced.mustRead).toBe(false);
    announced.offer('');
    expect(announced.mustRead).toBe(true);
    announced.reading();
    announced.offer('not json {');
    expect(announced.mustRead).toBe(true);
    announced.reading();
    announced.offer('{"position": broken');
    expect(announced.mustRead).toBe(true);
  });

  it('forgets what was announced before a new leadership', () => {
    const announced = new AnnouncedRecords();
    announced.reading();
    announced.offer(payload(1));
    announced.clear();
    expect(announced.mustRead).toBe(true);
    expect(announced.take(0n)).toEqual([]);
  });
});
