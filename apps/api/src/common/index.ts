export { todayIn } from './business-date';
export { notFound } from './not-found';
export { ApiInvalidResponse, JsonStringResponse, PrebuiltJson } from './openapi';
export { IsOmittable } from './omittable';
export { IsUuidString, lowerUuids, UuidPipe } from './uuid';
export { requireFacility, type FacilityRow } from './facility-lookup';
export { IsEmailAddress, IsPhone, PHONE_PATTERN, PHONE_PATTERN_DESCRIPTION } from './contact';
export { Batcher, type BatcherOptions } from './batcher';
export { nameBasedUuid } from './name-based-uuid';
