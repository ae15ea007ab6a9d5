import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiKeyAuth, CurrentPortfolio, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, IsUuidString } from '../common';
import { IsOptional } from 'class-validator';
import { CONTACT_METHODS } from '../model/lease.entity';
import { SECRET_PLACEHOLDER } from './notification.port';
import { query, sql } from '@storage/persistence';

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
  @ApiProperty({ description: `The text sent. Verification codes and signing links read \`${SECRET_PLACEHOLDER}\`.` })
  body!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

const NOTIFICATIONS_LIMIT = 100;

@ApiTags('Extensions')
@ApiKeyAuth()
@Controller('api/:portfolio/portfolios/v1/notifications')
export class NotificationsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Secrets are sent, never kept: a verification code is stored nowhere in clear, and a lease keeps only the hash
   * of its signing token, so no key gets either back.
   */
  @Get()
  @ApiOperation({
    summary: 'Communications sent (newest first, at most 100), their secrets hidden',
    description: `The messages the portfolio sent by email or SMS, newest first, at most ${NOTIFICATIONS_LIMIT}, optionally only those about a lead. Verification codes and signing links read \`${SECRET_PLACEHOLDER}\`: they are never kept.`,
  })
  @ApiOkResponse({ type: [NotificationView] })
  @ApiInvalidResponse()
  async list(@CurrentPortfolio() portfolio: PortfolioRef, @Query() filter: NotificationsQuery): Promise<NotificationView[]> {
    return query(
      this.dataSource,
      sql<
        NotificationView,
        [string, string | null]
      >(`SELECT uuid AS "notificationUuid", lead_uuid AS "leadUuid", channel, recipient, subject, body, created_at AS "createdAt"
       FROM notifications
       WHERE portfolio_uuid = $1 AND ($2::uuid IS NULL OR lead_uuid = $2::uuid)
       ORDER BY created_at DESC LIMIT ${NOTIFICATIONS_LIMIT}`),
      [portfolio.uuid, filter.leadUuid?.toLowerCase() ?? null],
    );
  }
}
