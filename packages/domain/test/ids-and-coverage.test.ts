import { COVERAGE_PROVIDERS, isUuid, PRIVATE_COVERAGE_UUID, timeOrderedUuid, uuidSchema } from '../src';

describe('isUuid', () => {
  it.each(['6f1c2a3e-0b4d-4c5e-9f60-1a2b3c4d5e60', '6F1C2A3E-0B4D-4C5E-9F60-1A2B3C4D5E60', '00000000-0000-0000-0000-000000000000', PRIVATE_COVERAGE_UUID])(
    'accepts %p',
    (s) => {
      expect(isUuid(s)).toBe(true);
      expect(uuidSchema.safeParse(s).success).toBe(true);
    },
  );

  it.each(['6f1c2a3e0b4d4c5e9f601a2b3c4d5e60', '{6f1c2a3e-0b4d-4c5e-9f60-1a2b3c4d5e60}', '6f1c2a3e-0b4d-4c5e-9f60-1a2b3c4d5e6g', '', 42])('refuses %p', (s) =>
    expect(isUuid(s)).toBe(false),
  );
});

describe('coverage constants', () => {
  it('names the private coverage and the providers of spec 2.6', () => {
    expect(PRIVATE_COVERAGE_UUID).toBe('11111111-1111-1111-1111-111111111111');
    expect(COVERAGE_PROVIDERS).toEqual(['SAFE_LEASE', 'SECURE_LEASE', 'STORAGE_SHIELD', 'RV_PARK_N_PROTECT', 'OTHER']);
  });
});

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 24, 12, 0, 0, 123);
    const id = timeOrderedUuid(at);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time, as text and as PostgreSQL compares uuids (byte by byte), and never repeats', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => timeOrderedUuid(1_795_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    const byMillisecond = ids.filter((_, i) => i % 100 === 0);
    expect([...byMillisecond].sort()).toEqual(byMillisecond);
  });
});
