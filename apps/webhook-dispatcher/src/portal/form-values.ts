/**
 * A time a form sent: a `datetime-local` value, read as UTC as the portal shows every time, or a full ISO time.
 * Undefined when absent or not a time.
 */
export function parseUtcTime(text: unknown): Date | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const time = new Date(/Z$|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(time.getTime()) ? undefined : time;
}

/** How the portal writes a time: to the second, in UTC, said so. */
export const utcText = (date: Date | null): string => (date ? new Date(date).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '');
