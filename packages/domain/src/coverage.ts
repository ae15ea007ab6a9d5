/** coverageUuid of a tenant's own (private) insurance in coverage history (spec 2.7). */
export const PRIVATE_COVERAGE_UUID = '11111111-1111-1111-1111-111111111111';

export const COVERAGE_PROVIDERS = ['SAFE_LEASE', 'SECURE_LEASE', 'STORAGE_SHIELD', 'RV_PARK_N_PROTECT', 'OTHER'] as const;
export type CoverageProvider = (typeof COVERAGE_PROVIDERS)[number];
