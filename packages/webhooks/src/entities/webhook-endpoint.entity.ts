import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A subscriber's HTTPS endpoint in one portfolio with the event types it subscribes to and its filters
 * (an empty filter matches all). Owned by the webhook-dispatcher; the api writes it for operations 15 to 18.
 */
@Entity({ name: 'webhook_endpoints' })
@Index('uq_webhook_endpoints_portfolio_url', ['portfolio', 'url'], { unique: true })
@Index('uq_webhook_endpoints_portfolio_vendor', ['portfolio', 'vendorName'], { unique: true })
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  portfolio!: string;

  @Column('text')
  vendorName!: string;

  @Column('text')
  url!: string;

  @Column('text')
  description!: string;

  @Column('text', { array: true })
  eventTypes!: string[];

  @Column('uuid', { array: true, default: () => "'{}'" })
  facilityUuids!: string[];

  @Column('uuid', { array: true, default: () => "'{}'" })
  unitTypes!: string[];

  @Column('uuid', { array: true, default: () => "'{}'" })
  amenityUuids!: string[];

  /**
   * The `whsec_…` secret sealed by `SecretKeyring` (`v1:<key id>:…`, AES-256-GCM): signing needs it back (HMAC),
   * a database dump must not. Rows written before sealing hold it bare until the dispatcher's next start.
   */
  @Column('text')
  secret!: string;

  /** The secret before the last rotation (sealed), still signing beside the new one until `previousSecretExpiresAt`. */
  @Column('text', { nullable: true })
  previousSecret!: string | null;

  @Column('timestamptz', { nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  disabledAt!: Date | null;

  @Column('text', { nullable: true })
  disabledReason!: string | null;

  /** Start of the current run of failed attempts; five days of it disables the endpoint. */
  @Column('timestamptz', { nullable: true })
  failingSince!: Date | null;

  /** A rental's later message waits until the earlier ones to this endpoint succeeded or were given up. */
  @Column('boolean', { default: false })
  orderedDelivery!: boolean;

  /** Deliveries to this endpoint in flight at once (per dispatcher replica), so a slow receiver cannot take every slot. */
  @Column('integer', { default: 16 })
  maxInFlight!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
