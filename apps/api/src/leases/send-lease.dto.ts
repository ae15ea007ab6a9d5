import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CONTACT_METHODS, type ContactMethod } from '../model/lease.entity';

export class SendLeaseQuery {
  @ApiPropertyOptional({ enum: CONTACT_METHODS, default: 'email', description: 'How the lease is sent.' })
  @IsOptional()
  @IsIn(CONTACT_METHODS)
  contactMethod?: ContactMethod;
}
