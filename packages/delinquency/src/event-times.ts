/**
 * Times for a rental's next `count` events: from now, but always after its previous event, one
 * millisecond apart. Event ids carry the millisecond, so two events of one type must never share it.
 */
export function eventTimes(previous: Date | null, count: number, now: number = Date.now()): Date[] {
  const start = Math.max(now, (previous?.getTime() ?? 0) + 1);
  return Array.from({ length: count }, (_, index) => new Date(start + index));
}
