/*
 * The rules of a subscription's input that operations 15 and 17 and the portal share: how its event types and its
 * filter uuids are stored. (Its URL: `checkTargetUrl`.)
 */

/** The longest vendor name, description and target URL a subscription takes, and the most uuids in one filter. */
export const SUBSCRIPTION_LIMITS = { vendorName: 200, description: 1_000, targetUrl: 2_048, filterUuids: 500 } as const;

/** The uuids of a facility, unit type or amenity filter as stored: lower case, each once. */
export const filterUuids = (uuids: readonly string[]): string[] => [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];

/**
 * The event types to store, in the order of `known` (the public event types), each once; the values that are not
 * one of them, with their place in the input, for the caller to refuse.
 */
export function subscribedEventTypes<T extends string>(
  values: readonly string[],
  known: readonly T[],
): { types: T[]; unknown: { index: number; value: string }[] } {
  const unknown = values.flatMap((value, index) => ((known as readonly string[]).includes(value) ? [] : [{ index, value }]));
  return { types: known.filter((type) => values.includes(type)), unknown };
}
