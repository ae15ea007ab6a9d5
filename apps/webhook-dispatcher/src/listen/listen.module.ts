import { Module, type DynamicModule } from '@nestjs/common';
import { ListenGateway } from './listen-gateway';
import { LISTEN_SECRET } from './listen.tokens';

/** `webhooks listen` streams (the hub that delivers down them is the delivery module's). */
@Module({})
export class ListenModule {
  static forRoot(options: { tokenSecret: string }): DynamicModule {
    return { module: ListenModule, providers: [{ provide: LISTEN_SECRET, useValue: options.tokenSecret }, ListenGateway] };
  }
}
