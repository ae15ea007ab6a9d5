export { todayIn } from './business-date';
export { notFound } from './not-found';
export { ApiInvalidResponse, JsonStringResponse, PrebuiltJson } from './openapi';
export { IsUuidString, lowerUuids, UuidPipe } from './uuid';
export { requireFacility, type FacilityRow } from './facility-lookup';
export { IsEmailAddress, IsPhone, PHONE_PATTERN_DESCRIPTION } from './contact';
export { updateReturning } from './update-returning';
export { queryPrepared, type PreparedStatement } from './prepared-query';
export { Batcher, type BatcherOptions } from './batcher';
