import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventEnvelope, PublicEventType } from '@storage/domain';
import { EventContext, ProcessedEvents } from '@storage/messaging';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import { recoverFailed, resendMessage } from '../delivery/message-actions';
import { fanOutAndMark, lifecycleFanOutEvent, type FanOutEvent, type FanOutOptions } from '../fan-out/fan-out';
import { FanOutBatcher } from '../fan-out/fan-out-batcher';
import { testEvent } from '../fan-out/test-event';

/**
 * Consumes storage.tenant-lifecycle.v1 (fan-out to matching endpoints) and storage.webhook-commands.v1.
 * Each event's effects commit with its processed-event mark (for fan-out, in the same statement), so
 * redelivery and replay change nothing; a replay asked to redeliver sends again, once per replay request.
 * The engine is woken after commit. Lifecycle events are fanned out in batches (FanOutBatcher), replays that
 * redeliver and commands one by one.
 */
@Controller()
export class EventsController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ProcessedEvents) private readonly processed: ProcessedEvents,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(FanOutBatcher) private readonly batcher: FanOutBatcher,
  ) {}

  @EventPattern('moved-in')
  movedIn(@Payload() envelope: EventEnvelope<'moved-in'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('moved-out')
  movedOut(@Payload() envelope: EventEnvelope<'moved-out'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('rent-change')
  rentChange(@Payload() envelope: EventEnvelope<'rent-change'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('delinquency-status-change')
  delinquency(@Payload() envelope: EventEnvelope<'delinquency-status-change'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('recurring-service-change')
  services(@Payload() envelope: EventEnvelope<'recurring-service-change'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('auction')
  auction(@Payload() envelope: EventEnvelope<'auction'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('transfer')
  transfer(@Payload() envelope: EventEnvelope<'transfer'>, @Ctx() context: EventContext): Promise<void> {
    return this.lifecycle(envelope, context);
  }

  @EventPattern('webhook-test-event')
  async testEvent(@Payload() envelope: EventEnvelope<'webhook-test-event'>, @Ctx() context: EventContext): Promise<void> {
    const { portfolio, eventType } = envelope.payload;
    const now = this.clock.now();
    await this.fanOutAndWake(context.group, envelope.eventId, testEvent(portfolio, eventType, now), { now, ignoreFilters: true });
  }

  @EventPattern('webhook-resend')
  async resend(@Payload() envelope: EventEnvelope<'webhook-resend'>, @Ctx() context: EventContext): Promise<void> {
    await this.once(context.group, envelope.eventId, (manager) => resendMessage(manager, envelope.portfolio, envelope.payload.messageId, this.clock.now()));
  }

  @EventPattern('webhook-recover')
  async recover(@Payload() envelope: EventEnvelope<'webhook-recover'>, @Ctx() context: EventContext): Promise<void> {
    const { endpointId, since } = envelope.payload;
    await this.once(context.group, envelope.eventId, (manager) => recoverFailed(manager, envelope.portfolio, endpointId, new Date(since), this.clock.now()));
  }

  private async lifecycle(envelope: EventEnvelope<PublicEventType>, context: EventContext): Promise<void> {
    const event = lifecycleFanOutEvent(envelope);
    if (context.redelivery === undefined) {
      await this.batcher.fanOutBatched(context.group, envelope.eventId, event);
      return;
    }
    const key = `${envelope.eventId}#redeliver:${context.redelivery.replayRequestId}`;
    await this.fanOutAndWake(context.group, key, event, { now: this.clock.now(), redeliver: true });
  }

  /** Fans one event out with its processed-event mark in a statement of its own, then wakes the engine for its messages. */
  private async fanOutAndWake(group: string, key: string, event: FanOutEvent, options: FanOutOptions): Promise<void> {
    const created = await fanOutAndMark(this.dataSource, { group, key }, event, options);
    if (created) this.engine.wake();
  }

  private async once(group: string, key: string, effects: (manager: EntityManager) => Promise<unknown>): Promise<void> {
    const applied = await this.processed.runOnce(group, key, async (manager) => void (await effects(manager)));
    if (applied) this.engine.wake();
  }
}
