import { COVERAGE_PROVIDERS, isUuid, PRIVATE_COVERAGE_UUID, uuidSchema } from '../src';

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
