import { Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AddressPolicy, openSecretKeyring, SecretKeyring, systemResolver, type Cidr, type SecretKeysSetting } from '@storage/webhooks';
import { Clock, MathRandom, Random, SystemClock } from '../clock';
import { randomUUID } from 'node:crypto';
import { ListenHub } from '../listen/listen-hub';
import { ListenAwareSender } from '../listen/listen-sender';
import { DeliveryClient } from './delivery-client';
import { DeliveryEngine, DEFAULT_ENGINE_OPTIONS } from './delivery-engine';
import { sealEndpointSecrets } from './endpoint-secrets';
import { MessageStore } from './message-store';

export interface DeliveryModuleOptions {
  allowedSubnets: readonly Cidr[];
  concurrency: number;
  recordWaitMs: number;
  secretKeys: SecretKeysSetting;
}

/**
 * Seals the endpoint secrets not yet sealed with the first key, then starts the delivery pump with the
 * application; drains it before the database closes.
 */
@Injectable()
class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EndpointSecrets');

  constructor(
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(DeliveryClient) private readonly client: DeliveryClient,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { sealed, unreadable } = await sealEndpointSecrets(this.dataSource, this.keyring);
    if (sealed > 0) this.logger.log(`sealed the secrets of ${sealed} endpoints with key "${this.keyring.primaryKeyId}"`);
    for (const error of unreadable) this.logger.error(`left as stored: ${error.message}`);
    this.engine.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.engine.stop();
    await this.client.close();
  }
}

@Module({})
export class DeliveryModule {
  static forRoot(options: DeliveryModuleOptions): DynamicModule {
    return {
      module: DeliveryModule,
      global: true,
      providers: [
        { provide: Clock, useClass: SystemClock },
        { provide: Random, useClass: MathRandom },
        { provide: SecretKeyring, useFactory: () => openSecretKeyring(options.secretKeys) },
        { provide: DeliveryClient, useFactory: () => new DeliveryClient({ policy: new AddressPolicy(options.allowedSubnets), resolve: systemResolver }) },
        { provide: MessageStore, inject: [DataSource], useFactory: (dataSource: DataSource) => new MessageStore(dataSource) },
        { provide: ListenHub, inject: [DataSource], useFactory: (dataSource: DataSource) => new ListenHub(dataSource, randomUUID()) },
        {
          provide: DeliveryEngine,
          inject: [MessageStore, SecretKeyring, DeliveryClient, ListenHub, Clock, Random],
          useFactory: (store: MessageStore, keyring: SecretKeyring, client: DeliveryClient, hub: ListenHub, clock: Clock, random: Random) =>
            new DeliveryEngine(store, keyring, new ListenAwareSender(client, hub), clock, random, {
              ...DEFAULT_ENGINE_OPTIONS,
              concurrency: options.concurrency,
              recordWaitMs: options.recordWaitMs,
              replica: hub.replica,
            }),
        },
        DeliveryWorker,
      ],
      exports: [Clock, DeliveryEngine, ListenHub, MessageStore, SecretKeyring],
    };
  }
}
