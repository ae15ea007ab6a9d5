import { Amenity } from './amenity.entity';
import { ApiKey } from './api-key.entity';
import { Coverage, CoverageEnrollment } from './coverage.entity';
import { Facility } from './facility.entity';
import { GateCode } from './gate-code.entity';
import { ItemType } from './item-type.entity';
import { Lead } from './lead.entity';
import { LeadMarketingSource, LeadSource } from './lead-source.entity';
import { Lease } from './lease.entity';
import { Note } from './note.entity';
import { Notification } from './notification.entity';
import { Person } from './person.entity';
import { Portfolio } from './portfolio.entity';
import { PromotionRecord } from './promotion.entity';
import { RatePlan } from './rate-plan.entity';
import { RentalPromotion } from './rental-promotion.entity';
import { RentalRecord, RentalService } from './rental-record.entity';
import { SizeAndTypeGroup } from './size-and-type-group.entity';
import { Unit } from './unit.entity';
import { UnitGroup, UnitGroupAmenity } from './unit-group.entity';
import { UnitType } from './unit-type.entity';
import { TenantVerificationCode } from './verification-code.entity';
import { Vehicle } from './vehicle.entity';
import { Payment } from '../rentals/payment.entity';

/** Every table the api owns, for its DataSource. */
export const API_ENTITIES = [
  Amenity,
  ApiKey,
  Coverage,
  CoverageEnrollment,
  Facility,
  GateCode,
  ItemType,
  Lead,
  LeadMarketingSource,
  LeadSource,
  Lease,
  Note,
  Notification,
  Payment,
  Person,
  Portfolio,
  PromotionRecord,
  RatePlan,
  RentalPromotion,
  RentalRecord,
  RentalService,
  SizeAndTypeGroup,
  Unit,
  UnitGroup,
  UnitGroupAmenity,
  UnitType,
  TenantVerificationCode,
  Vehicle,
];
