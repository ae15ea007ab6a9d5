import { BaseRpcContext } from '@nestjs/microservices';

/** Set when the message is delivered again by `replay --redeliver`: act on it even if handled before. */
export interface Redelivery {
  replayRequestId: string;
}

/** What a handler receives with `@Ctx()`: where the message came from and which attempt this is. */
export class EventContext extends BaseRpcContext<[]> {
  /** The handler's error as thrown, kept by HandlerErrorFilter before Nest's RPC filter replaces it. */
  failure: unknown;

  constructor(
    readonly group: string,
    readonly topic: string,
    /** `log:<position>` embedded, `<partition>:<offset>` in Kafka. */
    readonly position: string,
    readonly attempt: number,
    readonly redelivery: Redelivery | undefined,
  ) {
    super([]);
  }
}
