import { NotFoundException, type HttpServer } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { firstValueFrom, isObservable, type Observable } from 'rxjs';
import { EventContext } from '../src';
import { HandlerErrorFilter } from '../src/consumer/handler-error.filter';

const rpcHost = (context: EventContext): ExecutionContextHost => {
  const host = new ExecutionContextHost([{ type: 'payment-received' }, context]);
  host.setType('rpc');
  return host;
};

describe('HandlerErrorFilter', () => {
  it("keeps a failed handler's own error on its EventContext and answers the RPC as Nest does", async () => {
    const context = new EventContext('group', 'topic', 'log:7', 1, undefined);
    const failure = Object.assign(new Error('connection terminated unexpectedly'), { code: '57P01' });
    const answer = new HandlerErrorFilter().catch(failure, rpcHost(context));
    expect(context.failure).toBe(failure);
    expect(isObservable(answer)).toBe(true);
    await expect(firstValueFrom(answer as Observable<unknown>)).rejects.toEqual({ status: 'error', message: 'Internal server error' });
  });

  it("leaves an HTTP route's errors to Nest's default answer", () => {
    const reply = jest.fn();
    const adapter = { reply, isHeadersSent: () => false, end: jest.fn() } as unknown as HttpServer;
    const host = new ExecutionContextHost([{}, {}]);
    host.setType('http');
    new HandlerErrorFilter(adapter).catch(new NotFoundException('no such endpoint'), host);
    expect(reply).toHaveBeenCalledWith({}, { message: 'no such endpoint', error: 'Not Found', statusCode: 404 }, 404);
  });
});
