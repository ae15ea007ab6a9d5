import { Module } from '@nestjs/common';
import { FanOutBatcher } from '../fan-out/fan-out-batcher';
import { EventsController } from './events.controller';

/** The consumer of tenant-lifecycle events and webhook commands (the transport is connected in main.ts). */
@Module({ controllers: [EventsController], providers: [FanOutBatcher] })
export class EventsModule {}
