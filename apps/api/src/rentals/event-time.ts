/**
 * The time of a rental's next lifecycle event: now, but always after its previous one. Event ids carry
 * the millisecond, so two events of one rental must never share it.
 */
export function nextEventTime(previous: Date | null, now: number = Date.now()): Date {
  return new Date(Math.max(now, (previous?.getTime() ?? 0) + 1));
}
