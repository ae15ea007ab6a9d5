import { Module, type DynamicModule } from '@nestjs/common';
import { OutboxPublisher } from '@storage/messaging';
import { AddressPolicy, openSecretKeyring, SecretKeyring, systemResolver } from '@storage/webhooks';
import { SERVICE_NAME } from '../service-info';
import { SubscriptionsService } from './subscriptions.service';
import { WebhookCommandsService } from './webhook-commands.service';
import type { WebhooksConfig } from './webhooks.config';
import { WebhooksController } from './webhooks.controller';
import { ADDRESS_POLICY, COMMAND_PUBLISHER, HOST_RESOLVER, WEBHOOKS_CONFIG } from './webhooks.tokens';

/**
 * Operations 15 to 20. Reads its own settings (PORTAL_TOKEN_SECRET, PORTAL_BASE_URL, WEBHOOK_ALLOWED_SUBNETS,
 * WEBHOOK_SECRET_KEYS) and writes the dispatcher's endpoint table, secrets sealed; test events go to the
 * dispatcher through the outbox.
 */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    return {
      module: WebhooksModule,
      controllers: [WebhooksController],
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        { provide: ADDRESS_POLICY, useValue: new AddressPolicy(config.allowedSubnets) },
        { provide: HOST_RESOLVER, useValue: systemResolver },
        { provide: SecretKeyring, useFactory: () => openSecretKeyring(config.secretKeys) },
        // Its own publisher instance: the outbox row names the api as source whoever registers MessagingModule.
        { provide: COMMAND_PUBLISHER, useValue: new OutboxPublisher(SERVICE_NAME) },
        SubscriptionsService,
        WebhookCommandsService,
      ],
    };
  }
}
