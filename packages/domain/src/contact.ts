/**
 * The three phone formats of spec 4.6, North American numbering: area code (NPA) and exchange (NXX)
 * start with 2-9.
 */
const PHONE_FORMATS: readonly RegExp[] = [
  /^\(([2-9]\d{2})\) ([2-9]\d{2})-(\d{4})$/, // (NPA) NXX-XXXX
  /^([2-9]\d{2})-([2-9]\d{2})-(\d{4})$/, // NPA-NXX-XXXX
  /^([2-9]\d{2})([2-9]\d{2})(\d{4})$/, // NPANXXXXXX
];

export function isValidPhone(s: string): boolean {
  return normalizePhone(s) !== null;
}

/** The ten digits of a phone in one of the accepted formats, or null when it is in none of them. */
export function normalizePhone(s: string): string | null {
  for (const format of PHONE_FORMATS) {
    const match = format.exec(s);
    if (match) return `${match[1]}${match[2]}${match[3]}`;
  }
  return null;
}

/** RFC 5321 limit on a forward path. */
const MAX_EMAIL_LENGTH = 254;
/** Pragmatic, not RFC 5322: one @, no whitespace, a domain of at least two non-empty dot-separated labels. */
const EMAIL_PATTERN = /^[^\s@]+@(?:[^\s@.]+\.)+[^\s@.]+$/;

export function isValidEmail(s: string): boolean {
  return s.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(s);
}
