import { InvalidRequestException, shorten } from '@storage/platform';
import { isPublicEventType, PUBLIC_EVENT_TYPES, type PublicEventType } from '@storage/domain';
import { checkTargetUrl, checkTargetUrlSyntax, subscribedEventTypes, TargetUrlRefused, type AddressPolicy, type HostResolver } from '@storage/webhooks';

const EVENT_TYPE_HINT = `use one of ${PUBLIC_EVENT_TYPES.join(', ')}`;

/** The refused value as the message quotes it: enough to recognise a typo, never a 200 KB string whole. */
const notAnEventType = (value: string): string => `"${shorten(value, 40)}" is not an event type; ${EVENT_TYPE_HINT}`;

/** The seven hyphenated names only (spec 6.1); every other value is named in the 400. Duplicates collapse. */
export function eventTypesOf(values: readonly string[], field = 'eventTypes'): PublicEventType[] {
  const { types, unknown } = subscribedEventTypes(values, PUBLIC_EVENT_TYPES);
  if (unknown.length > 0)
    throw new InvalidRequestException(unknown.map(({ index, value }) => ({ field: `${field}[${index}]`, message: notAnEventType(value) })));
  return types;
}

export function eventTypeOf(value: string, field: string): PublicEventType {
  if (!isPublicEventType(value)) throw new InvalidRequestException([{ field, message: notAnEventType(value) }]);
  return value;
}

/** Every target URL rule, DNS included, as a 400 on `targetUrl`. */
export async function vettedTargetUrl(raw: string, policy: AddressPolicy, resolve: HostResolver): Promise<string> {
  try {
    await checkTargetUrl(raw, policy, resolve);
    return raw;
  } catch (error) {
    if (error instanceof TargetUrlRefused) throw new InvalidRequestException([{ field: 'targetUrl', message: error.message }]);
    throw error;
  }
}

/** The rules that need no DNS, for a URL that only identifies an existing subscription. */
export function targetUrlSyntax(raw: string, policy: AddressPolicy): string {
  try {
    checkTargetUrlSyntax(raw, policy);
    return raw;
  } catch (error) {
    if (error instanceof TargetUrlRefused) throw new InvalidRequestException([{ field: 'targetUrl', message: error.message }]);
    throw error;
  }
}
