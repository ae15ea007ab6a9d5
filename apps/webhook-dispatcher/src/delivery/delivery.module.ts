import { Inject, Injectable, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AddressPolicy, systemResolver, type Cidr } from '@storage/webhooks';
import { Clock, MathRandom, Random, SystemClock } from '../clock';
import { DeliveryClient } from './delivery-client';
import { DeliveryEngine, DEFAULT_ENGINE_OPTIONS } from './delivery-engine';
import { MessageStore } from './message-store';

export interface DeliveryModuleOptions {
  allowedSubnets: readonly Cidr[];
  concurrency: number;
}

/** Starts the delivery pump with the application and drains it before the database closes. */
@Injectable()
class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(DeliveryClient) private readonly client: DeliveryClient,
  ) {}

  onApplicationBootstrap(): void {
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
        { provide: DeliveryClient, useFactory: () => new DeliveryClient({ policy: new AddressPolicy(options.allowedSubnets), resolve: systemResolver }) },
        {
          provide: DeliveryEngine,
          inject: [DataSource, DeliveryClient, Clock, Random],
          useFactory: (dataSource: DataSource, client: DeliveryClient, clock: Clock, random: Random) =>
            new DeliveryEngine(new MessageStore(dataSource), client, clock, random, { ...DEFAULT_ENGINE_OPTIONS, concurrency: options.concurrency }),
        },
        DeliveryWorker,
      ],
      exports: [Clock, DeliveryEngine],
    };
  }
}
