import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { DEFAULT_DELIVERY_SETTINGS, SUBSCRIPTION_LIMITS } from '@storage/webhooks';
import { IsOmittable, IsUuidString } from '../common';

const MAX_FILTER_UUIDS = SUBSCRIPTION_LIMITS.filterUuids;
/** An absolute URL (the rules no schema can say, HTTPS to a public address, are in the description and answered 400). */
export const targetUrlDoc = (description: string): ApiPropertyOptions => ({
  type: 'string',
  format: 'uri',
  maxLength: SUBSCRIPTION_LIMITS.targetUrl,
  description,
});
const eventTypesDoc: ApiPropertyOptions = {
  type: [String],
  enum: [...PUBLIC_EVENT_TYPES],
  minItems: 1,
  maxItems: 7,
  description: 'One or more of the seven event types.',
};

/* Delivery settings (extension fields), read by the dispatcher for each endpoint. */
const MAX_IN_FLIGHT = 256;
const orderedDeliveryDoc: ApiPropertyOptions = {
  type: Boolean,
  description:
    "When true, a rental's later event is not sent to this endpoint until the earlier ones succeeded or were given up (retries exhausted, endpoint disabled); other rentals flow. When false, the dispatcher never has two events of one rental in flight to one endpoint, so without failures they arrive in emission order, but a failed attempt's retry can arrive after later events.",
};
const maxInFlightDoc: ApiPropertyOptions = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_IN_FLIGHT,
  description:
    'Deliveries to this endpoint in flight at once, across all dispatcher replicas; a slow or hanging receiver holds at most this many slots. While the endpoint is failing (from a failed attempt until one succeeds) it gets one delivery at a time.',
};

export class CreateSubscription {
  @ApiProperty({ minLength: 1, maxLength: SUBSCRIPTION_LIMITS.vendorName })
  @IsString()
  @MinLength(1)
  @MaxLength(SUBSCRIPTION_LIMITS.vendorName)
  vendorName!: string;
  @ApiProperty(targetUrlDoc('HTTPS only; no localhost, loopback or private IP; no query string.')) @IsString() targetUrl!: string;
  @ApiProperty(eventTypesDoc) @IsArray() @ArrayNotEmpty() @ArrayMaxSize(7) @IsString({ each: true }) eventTypes!: string[];
  @ApiProperty({ maxLength: SUBSCRIPTION_LIMITS.description }) @IsString() @MaxLength(SUBSCRIPTION_LIMITS.description) description!: string;
  @ApiProperty({ minLength: 1, description: 'The portfolio (database prefix).' }) @IsString() @MinLength(1) portfolio!: string;
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  facilityUuids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  amenityUuids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  unitTypes?: string[];
  // Omittable rather than optional: null is refused, not taken for the default.
  @ApiPropertyOptional({ ...orderedDeliveryDoc, default: DEFAULT_DELIVERY_SETTINGS.orderedDelivery }) @IsOmittable() @IsBoolean() orderedDelivery?: boolean;
  @ApiPropertyOptional({ ...maxInFlightDoc, default: DEFAULT_DELIVERY_SETTINGS.maxInFlight })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_IN_FLIGHT)
  maxInFlight?: number;
}

export class UpdateSubscription {
  @ApiPropertyOptional(targetUrlDoc('Identifies the subscription when not given as a query parameter.')) @IsOmittable() @IsString() targetUrl?: string;
  @ApiPropertyOptional(eventTypesDoc) @IsOmittable() @IsArray() @ArrayNotEmpty() @ArrayMaxSize(7) @IsString({ each: true }) eventTypes?: string[];
  @ApiPropertyOptional({ maxLength: SUBSCRIPTION_LIMITS.description })
  @IsOmittable()
  @IsString()
  @MaxLength(SUBSCRIPTION_LIMITS.description)
  description?: string;
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  facilityUuids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  amenityUuids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_UUIDS })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_UUIDS)
  @IsUuidString({ each: true })
  unitTypes?: string[];
  @ApiPropertyOptional(orderedDeliveryDoc) @IsOmittable() @IsBoolean() orderedDelivery?: boolean;
  @ApiPropertyOptional(maxInFlightDoc) @IsOmittable() @IsInt() @Min(1) @Max(MAX_IN_FLIGHT) maxInFlight?: number;
}

export class Unsubscribe {
  @ApiProperty({ minLength: 1 }) @IsString() @MinLength(1) vendorName!: string;
  @ApiProperty({ minLength: 1, description: 'The portfolio (database prefix).' }) @IsString() @MinLength(1) portfolio!: string;
  @ApiProperty(eventTypesDoc) @IsArray() @ArrayNotEmpty() @ArrayMaxSize(7) @IsString({ each: true }) eventTypes!: string[];
}

export class SendTestEvent {
  @ApiProperty({ enum: [...PUBLIC_EVENT_TYPES] }) @IsString() eventType!: string;
  @ApiProperty({ minLength: 1, description: 'The portfolio (database prefix) whose endpoints receive the test message.' })
  @IsString()
  @MinLength(1)
  portfolio!: string;
}

export class SubscriptionView {
  @ApiProperty() applicationId!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String] }) subscribedEventTypes!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) facilityUuids!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) amenityUuids!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) unitTypes!: string[];
  @ApiProperty({ description: 'Equals the portfolio.' }) databasePrefix!: string;
  @ApiProperty(orderedDeliveryDoc) orderedDelivery!: boolean;
  @ApiProperty(maxInFlightDoc) maxInFlight!: number;
}

export class CreatedSubscription extends SubscriptionView {
  @ApiProperty() endpointId!: string;
  @ApiProperty({ description: 'Signing secret (`whsec_…`), shown once; also visible in the portal.' }) secret!: string;
}

export class SubscriptionItem {
  @ApiProperty() url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: [...PUBLIC_EVENT_TYPES] }) eventType!: string;
  @ApiProperty({ type: [String], format: 'uuid' }) facilityUuids!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) unitTypes!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) amenityUuids!: string[];
  @ApiProperty() portfolio!: string;
  @ApiProperty(orderedDeliveryDoc) orderedDelivery!: boolean;
  @ApiProperty(maxInFlightDoc) maxInFlight!: number;
}

export class SubscriptionList {
  @ApiProperty() applicationId!: string;
  @ApiProperty({ type: [SubscriptionItem] }) items!: SubscriptionItem[];
}

export class Unsubscribed {
  @ApiProperty() applicationId!: string;
  @ApiProperty() vendorName!: string;
  @ApiProperty() endpointId!: string;
  @ApiProperty() url!: string;
  @ApiPropertyOptional({ type: [String], description: 'Present only when some event types remain.' }) unsubscribedEventTypes?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Present only when some event types remain.' }) remainingEventTypes?: string[];
}

export class TestEventSent {
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'Endpoints that will receive the test message.' }) endpoints!: number;
}

export class PortalLink {
  @ApiProperty({ description: 'Link to the webhook portal, valid 7 days.' }) url!: string;
}

export class OpenListenSession {
  @ApiProperty({ minLength: 1, description: 'The portfolio (database prefix) whose events the session receives.' })
  @IsString()
  @MinLength(1)
  portfolio!: string;
  @ApiPropertyOptional({ ...eventTypesDoc, description: 'The event types the session receives; every one when absent.' })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(7)
  @IsString({ each: true })
  eventTypes?: string[];
}

export class ListenSessionGrant {
  @ApiProperty({ description: 'The WebSocket URL of the session stream (the dispatcher); open it with the token as `Authorization: Bearer …`.' })
  streamUrl!: string;
  @ApiProperty({ description: 'Opens the stream, and opens it again after a disconnect (same session: messages meanwhile wait).' }) token!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}
