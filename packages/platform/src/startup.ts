import { Injectable } from '@nestjs/common';
import type { ReadinessCheck } from './health';

/**
 * Whether the service's event transports are still starting. A service listens for HTTP before it starts them,
 * so while they wait (for a broker still settling, up to its bound) its liveness answers and its readiness says
 * why it is not ready yet, instead of the port being closed and the process looking dead. An application that
 * never calls `starting` (one built by a test, say) has nothing pending.
 */
@Injectable()
export class ServiceStartup {
  private pending = false;

  starting(): void {
    this.pending = true;
  }

  started(): void {
    this.pending = false;
  }

  readonly check: ReadinessCheck = {
    name: 'startup',
    check: async () => {
      if (this.pending) throw new Error('event transports starting (waiting for the broker)');
    },
  };
}
