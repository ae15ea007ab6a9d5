import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  attachListenSession,
  checkListenToken,
  generateSecret,
  openListenSession,
  SecretKeyring,
  sweepListenSessions,
  type ListenGrant,
  type ListenSession,
} from '@storage/webhooks';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import { MessageStore } from '../delivery/message-store';
import { grantKeyActive } from '../portal/portal-keys';
import { LISTEN_GRACE_MS, ListenHub } from './listen-hub';
import { LISTEN_PATH, RESUME_HEADER, type ReadyMessage } from './listen-protocol';
import { LISTEN_SECRET } from './listen.tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refusal before the upgrade, as problem+json. */
class Refusal extends Error {
  constructor(
    readonly status: 401 | 403 | 404 | 503,
    readonly title: string,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * `webhooks listen` streams: a WebSocket upgrade at /listen with the api's grant (`POST /api/v1/webhooks/listen`). A new
 * stream opens a session (an endpoint of the portfolio, its own secret); one naming a session in `x-listen-session`
 * resumes it, and what waited meanwhile is due at once. The grant's key must still be an active write key of the portfolio.
 */
@Injectable()
export class ListenGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ListenGateway.name);
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1_024 });

  constructor(
    @Inject(HttpAdapterHost) private readonly adapter: HttpAdapterHost,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
    @Inject(ListenHub) private readonly hub: ListenHub,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(MessageStore) private readonly store: MessageStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(LISTEN_SECRET) private readonly secret: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const http = this.adapter.httpAdapter.getHttpServer() as import('node:http').Server;
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(request.url ?? '/', 'http://dispatcher').pathname !== LISTEN_PATH) return void socket.destroy();
      void this.upgrade(request, socket, head);
    });
    // Sessions of a replica that died unseen are swept by whichever replica starts or holds streams next.
    await sweepListenSessions(this.dataSource, new Date(this.clock.now().getTime() - LISTEN_GRACE_MS));
  }

  /** Before the HTTP server closes, which waits for its connections: the streams' listeners reconnect elsewhere. */
  beforeApplicationShutdown(): void {
    this.hub.close();
    this.server.close();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    try {
      const grant = await this.grantOf(request);
      const session = await this.sessionFor(grant, request.headers[RESUME_HEADER]);
      this.server.handleUpgrade(request, socket, head, (ws) => this.begin(session, ws));
    } catch (error) {
      if (error instanceof Refusal) return refuse(socket, error);
      this.logger.error(`opening a listen stream failed: ${String(error)}`);
      refuse(socket, new Refusal(503, 'Service Unavailable', 'the session could not be opened now; try again'));
    }
  }

  private async grantOf(request: IncomingMessage): Promise<ListenGrant> {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const grant = bearer ? checkListenToken(bearer, this.clock.now(), this.secret) : null;
    if (!grant) throw new Refusal(401, 'Unauthorized', 'a listen grant (POST /api/v1/webhooks/listen) is required as Authorization: Bearer, unexpired');
    if (!(await grantKeyActive(this.dataSource, grant)))
      throw new Refusal(403, 'Forbidden', 'the API key of this grant is revoked, read-only, or no longer reaches the portfolio');
    return grant;
  }

  private async sessionFor(grant: ListenGrant, resume: string | string[] | undefined): Promise<ListenSession> {
    const now = this.clock.now();
    if (resume === undefined) {
      const id = randomUUID();
      const sealedSecret = this.keyring.seal(generateSecret(), id);
      return openListenSession(
        this.dataSource,
        { id, portfolio: grant.portfolio, eventTypes: grant.eventTypes, sealedSecret, apiKeyUuid: grant.apiKeyUuid },
        this.hub.replica,
        now,
      );
    }
    const id = typeof resume === 'string' && UUID.test(resume) ? resume : undefined;
    const session = id ? await attachListenSession(this.dataSource, id, grant, this.hub.replica, now) : null;
    if (!session) throw new Refusal(404, 'Not Found', `no listen session ${String(resume)} of this key and portfolio: it ended; open a new one`);
    // What waited for the listener, retries included, goes now.
    await this.store.dueNow(session.id, now);
    return session;
  }

  private begin(session: ListenSession, ws: WebSocket): void {
    const ready: ReadyMessage = {
      type: 'ready',
      sessionId: session.id,
      secret: this.keyring.open(session.sealedSecret, session.id),
      eventTypes: session.eventTypes,
    };
    ws.send(JSON.stringify(ready));
    this.hub.hold(session.id, ws);
    this.engine.wake();
    this.logger.log(`listen session ${session.id} of portfolio ${session.portfolio} connected`);
  }
}

function refuse(socket: Duplex, refusal: Refusal): void {
  const { status, title } = refusal;
  const body = JSON.stringify({ type: 'about:blank', title, status, detail: refusal.message });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
