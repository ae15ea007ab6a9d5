import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { WebSocket } from 'ws';
import { detachListenSession, endListenSession, sweepListenSessions, vouchForListenSessions } from '@storage/webhooks';
import { DELIVERY_TIMEOUT_MS, type DeliveryRequest, type DeliveryResponse } from '../delivery/delivery-client';
import { frameText, isAnswer, type AnswerMessage, type DeliveryMessage } from './listen-protocol';

/** The scheme of a listen session's endpoint URL: `listen:<session id>`. */
export const LISTEN_URL_PREFIX = 'listen:';
/** A session no replica vouched for this long (closed and not resumed, or its replica died) is swept, messages and all. */
export const LISTEN_GRACE_MS = 2 * 60_000;
const VOUCH_EVERY_MS = 20_000;
/** The WebSocket close code of a listener that stopped on purpose. */
const NORMAL_CLOSURE = 1000;

interface Stream {
  socket: WebSocket;
  answers: Map<string, (answer: AnswerMessage | { error: string }) => void>;
}

/**
 * The listen sessions whose streams this replica holds (`replica`, the `listener` of their endpoints, so only this
 * replica claims their messages) and delivery down them. While it holds any, it vouches for them and sweeps the
 * sessions nobody vouched for; an idle replica does neither.
 */
export class ListenHub {
  private readonly logger = new Logger(ListenHub.name);
  private readonly streams = new Map<string, Stream>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    readonly replica: string,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {}

  /**
   * Holds the session's stream: deliveries go down it, answers come back. The listener closing it normally (Ctrl-C)
   * ends the session; a stream that drops detaches it, to be resumed within its grace.
   */
  hold(sessionId: string, socket: WebSocket): void {
    const stream: Stream = { socket, answers: new Map() };
    this.streams.get(sessionId)?.socket.close(4000, 'the session was opened again elsewhere');
    this.streams.set(sessionId, stream);
    socket.on('message', (data) => this.answered(stream, frameText(data)));
    socket.once('close', (code) => {
      for (const settle of stream.answers.values()) settle({ error: 'the listener disconnected' });
      if (this.streams.get(sessionId) !== stream) return;
      this.streams.delete(sessionId);
      const left =
        code === NORMAL_CLOSURE
          ? endListenSession(this.dataSource, sessionId, this.replica)
          : detachListenSession(this.dataSource, sessionId, this.replica, new Date());
      left.catch((error: unknown) => this.logger.error(`letting listen session ${sessionId} go failed (it is swept later): ${String(error)}`));
    });
    this.keepUp();
  }

  /** One attempt down the session's stream, answered by the listener or failed as a receiver that did not answer. */
  async deliver(sessionId: string, request: DeliveryRequest): Promise<DeliveryResponse> {
    const started = performance.now();
    const stream = this.streams.get(sessionId);
    const elapsed = () => Math.round(performance.now() - started);
    if (!stream) return { kind: 'error', error: 'the listener is not connected', timedOut: false, latencyMs: 0 };
    const id = request.headers['hook-id'];
    const answer = await new Promise<AnswerMessage | { error: string; timedOut?: true }>((resolve) => {
      const timer = setTimeout(() => settle({ error: `no answer in ${this.timeoutMs} ms`, timedOut: true }), this.timeoutMs);
      const settle = (value: AnswerMessage | { error: string; timedOut?: true }) => {
        clearTimeout(timer);
        stream.answers.delete(id);
        resolve(value);
      };
      stream.answers.set(id, settle);
      const message: DeliveryMessage = { type: 'delivery', id, eventType: request.eventType, headers: request.headers, body: request.body };
      stream.socket.send(JSON.stringify(message), (error) => error && settle({ error: `not sent to the listener: ${error.message}` }));
    });
    if ('status' in answer) return { kind: 'response', statusCode: answer.status, body: answer.body, retryAfter: undefined, latencyMs: elapsed() };
    return { kind: 'error', error: answer.error, timedOut: 'timedOut' in answer, latencyMs: elapsed() };
  }

  /** Closes every stream (shutdown): their listeners reconnect to another replica. */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const { socket } of this.streams.values()) socket.close(1001, 'the dispatcher is stopping');
  }

  private answered(stream: Stream, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (isAnswer(message)) stream.answers.get(message.id)?.(message);
  }

  /** Vouches and sweeps while this replica holds streams or a closed one's grace runs, then stops. */
  private keepUp(): void {
    if (this.timer) return;
    let idleSince: number | undefined;
    this.timer = setInterval(() => {
      const now = new Date();
      if (this.streams.size > 0) idleSince = undefined;
      else idleSince ??= now.getTime();
      if (idleSince !== undefined && now.getTime() - idleSince > LISTEN_GRACE_MS + VOUCH_EVERY_MS) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      void this.vouchAndSweep(now);
    }, VOUCH_EVERY_MS);
  }

  private async vouchAndSweep(now: Date): Promise<void> {
    try {
      await vouchForListenSessions(this.dataSource, [...this.streams.keys()], this.replica, now);
      const swept = await sweepListenSessions(this.dataSource, new Date(now.getTime() - LISTEN_GRACE_MS));
      if (swept.length > 0) this.logger.log(`removed ${swept.length} listen session(s) no listener came back to`);
    } catch (error) {
      this.logger.error(`keeping listen sessions failed, trying again in ${VOUCH_EVERY_MS / 1_000} s: ${String(error)}`);
    }
  }
}
