import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A subscriber's HTTPS endpoint in one portfolio with the event types it subscribes to and its filters
 * (an empty filter matches all), or a `webhooks listen` session's stand-in endpoint (`listenApiKey` set). Owned by the
 * webhook-dispatcher; the api writes it for operations 15 to 18.
 */
@Entity({ name: 'webhook_endpoints' })
@Check('ck_webhook_endpoints_listen', '(listen_api_key IS NULL) = (listener_seen_at IS NULL) AND (listener IS NULL OR listen_api_key IS NOT NULL)')
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

  /** The API key that opened this `webhooks listen` session; null for a subscription. */
  @Column('uuid', { nullable: true })
  listenApiKey!: string | null;

  /** The dispatcher replica holding the session's stream; null while the listener reconnects. */
  @Column('text', { nullable: true })
  listener!: string | null;

  /** When the session's replica last vouched for it; a session unseen for a while is swept. */
  @Column('timestamptz', { nullable: true })
  listenerSeenAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
