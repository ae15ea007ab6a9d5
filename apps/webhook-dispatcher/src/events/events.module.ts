import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';

/** The consumer of tenant-lifecycle events and webhook commands (the transport is connected in main.ts). */
@Module({ controllers: [EventsController] })
export class EventsModule {}
