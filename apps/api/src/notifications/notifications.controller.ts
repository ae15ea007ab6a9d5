import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, IsUuidString } from '../common';
import { IsOptional } from 'class-validator';
import { CONTACT_METHODS } from '../model/lease.entity';

export class NotificationsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the messages about this lead.' })
  @IsOptional()
  @IsUuidString()
  leadUuid?: string;
}

export class NotificationView {
  @ApiProperty({ format: 'uuid' }) notificationUuid!: string;
  @ApiProperty({ format: 'uuid', type: 'string', nullable: true }) leadUuid!: string | null;
  @ApiProperty({ enum: CONTACT_METHODS }) channel!: string;
  @ApiProperty() recipient!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The signing link of a lease, when the message carries one.' }) link!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

const NOTIFICATIONS_LIMIT = 100;

@ApiTags('Extensions')
@ApiKeyAuth()
@Controller('api/:portfolio/portfolios/v1/notifications')
export class NotificationsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ summary: 'Communications sent (newest first, at most 100), with the signing link of leases' })
  @ApiOkResponse({ type: [NotificationView] })
  @ApiInvalidResponse()
  async list(@CurrentPortfolio() portfolio: PortfolioRef, @Query() query: NotificationsQuery): Promise<NotificationView[]> {
    return this.dataSource.query(
      `SELECT uuid AS "notificationUuid", lead_uuid AS "leadUuid", channel, recipient, subject, body, link, created_at AS "createdAt"
       FROM notifications WHERE portfolio_uuid = $1 AND ($2::uuid IS NULL OR lead_uuid = $2::uuid)
       ORDER BY created_at DESC LIMIT ${NOTIFICATIONS_LIMIT}`,
      [portfolio.uuid, query.leadUuid?.toLowerCase() ?? null],
    );
  }
}
