import { nameBasedUuid } from '../common';

/** A stable UUID for a seeded record's name, so every demo seed has the same ids. */
export function seedUuid(name: string): string {
  return nameBasedUuid(`storage-demo:${name}`);
}
