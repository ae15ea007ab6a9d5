import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiKeyAuth, CurrentApiKey, CurrentPortfolio, type ApiKeyPrincipal, type PortfolioRef } from '../auth';
import { ApiInvalidResponse, IsUuidString } from '../common';
import { IsOptional } from 'class-validator';
import { CONTACT_METHODS } from '../model/lease.entity';
import { signingLink } from './signing-link';
import { SECRET_PLACEHOLDER } from './notification.port';
import { query, sql } from '@storage/persistence';

/** Where tenants reach the api (PUBLIC_BASE_URL): signing links start with it. */
export const NOTIFICATIONS_PUBLIC_BASE_URL = Symbol('NOTIFICATIONS_PUBLIC_BASE_URL');

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
  @ApiProperty({ description: `The text sent. Verification codes read \`${SECRET_PLACEHOLDER}\`, and so do signing links for a read key.` })
  body!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The signing link of a lease, when the message carries one and the key may write (null for a read key).',
  })
  link!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: Date;
}

const NOTIFICATIONS_LIMIT = 100;

@ApiTags('Extensions')
@ApiKeyAuth()
@Controller('api/:portfolio/portfolios/v1/notifications')
export class NotificationsController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NOTIFICATIONS_PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
  ) {}

  /**
   * A signing link signs a lease, so only a write key gets it back (from the lease: messages are stored without it);
   * a verification code is stored nowhere in clear, so no key gets it.
   */
  @Get()
  @ApiOperation({ summary: 'Communications sent (newest first, at most 100), with the signing link of leases for a write key' })
  @ApiOkResponse({ type: [NotificationView] })
  @ApiInvalidResponse()
  async list(
    @CurrentPortfolio() portfolio: PortfolioRef,
    @CurrentApiKey() principal: ApiKeyPrincipal,
    @Query() filter: NotificationsQuery,
  ): Promise<NotificationView[]> {
    const rows = await query(
      this.dataSource,
      sql<
        Omit<NotificationView, 'link'> & { signingToken: string | null }
      >(`SELECT n.uuid AS "notificationUuid", n.lead_uuid AS "leadUuid", n.channel, n.recipient, n.subject, n.body,
              l.signing_token AS "signingToken", n.created_at AS "createdAt"
       FROM notifications n LEFT JOIN leases l ON l.uuid = n.lease_uuid
       WHERE n.portfolio_uuid = $1 AND ($2::uuid IS NULL OR n.lead_uuid = $2::uuid)
       ORDER BY n.created_at DESC LIMIT ${NOTIFICATIONS_LIMIT}`),
      [portfolio.uuid, filter.leadUuid?.toLowerCase() ?? null],
    );
    return rows.map(({ signingToken, ...row }) => {
      if (signingToken === null || principal.scope === 'read') return { ...row, link: null };
      const link = signingLink(this.publicBaseUrl, signingToken);
      return { ...row, body: row.body.replace(SECRET_PLACEHOLDER, link), link };
    });
  }
}
