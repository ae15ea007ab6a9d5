import { isValidEmail, isValidPhone, normalizePhone } from '../src';

describe('phone (spec 4.6)', () => {
  it.each([
    ['(415) 555-0134', '4155550134'],
    ['415-555-0134', '4155550134'],
    ['4155550134', '4155550134'],
    ['(212) 200-9999', '2122009999'],
  ])('accepts %p as %p', (phone, digits) => {
    expect(isValidPhone(phone)).toBe(true);
    expect(normalizePhone(phone)).toBe(digits);
  });

  it.each([
    ['area code starting with 1', '(115) 555-0134'],
    ['area code starting with 0', '015-555-0134'],
    ['exchange starting with 1', '4151550134'],
    ['exchange starting with 0', '(415) 055-0134'],
    ['dots', '415.555.0134'],
    ['country code', '+1 415-555-0134'],
    ['parentheses without the space', '(415)555-0134'],
    ['mixed separators', '(415) 555 0134'],
    ['nine digits', '415555013'],
    ['eleven digits', '14155550134'],
    ['surrounding spaces', ' 4155550134 '],
    ['empty', ''],
  ])('refuses %s', (_case, phone) => {
    expect(isValidPhone(phone)).toBe(false);
    expect(normalizePhone(phone)).toBeNull();
  });
});

describe('email', () => {
  it.each(['jane.doe@example.com', 'j+storage@mail.example.co.uk', 'a@b.io'])('accepts %p', (email) => expect(isValidEmail(email)).toBe(true));

  it.each([
    ['no @', 'jane.example.com'],
    ['two @', 'jane@doe@example.com'],
    ['no dot in domain', 'jane@localhost'],
    ['space', 'jane doe@example.com'],
    ['empty local part', '@example.com'],
    ['empty domain label', 'jane@example..com'],
    ['trailing dot', 'jane@example.com.'],
    ['too long', `${'a'.repeat(243)}@example.com`],
  ])('refuses %s', (_case, email) => expect(isValidEmail(email)).toBe(false));

  it('accepts exactly 254 characters', () => expect(isValidEmail(`${'a'.repeat(242)}@example.com`)).toBe(true));
});
