import { createHash } from 'node:crypto';

/** A stable UUID (version 5 layout) for a seeded record's name, so every demo seed has the same ids. */
export function seedUuid(name: string): string {
  const hex = createHash('sha1').update(`storage-demo:${name}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
