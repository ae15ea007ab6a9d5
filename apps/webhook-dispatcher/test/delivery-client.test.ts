import { AddressPolicy, parseSubnetList } from '@storage/webhooks';
import { DeliveryClient } from '../src/delivery/delivery-client';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';

/** The HTTPS client's trust: every connection shares one TLS context, which must still verify the receiver. */
describe('delivery client', () => {
  let trusted: TestCertificate;
  let stranger: TestCertificate;
  let receiver: TestReceiver;

  beforeAll(async () => {
    [trusted, stranger] = await Promise.all([makeCertificate(), makeCertificate()]);
    receiver = await new TestReceiver(stranger).start();
  });
  afterAll(async () => {
    await receiver.stop();
    trusted.cleanup();
    stranger.cleanup();
  });

  const send = async (ca: TestCertificate) => {
    const client = new DeliveryClient({ policy: new AddressPolicy(parseSubnetList('127.0.0.1/32')), testCa: ca.cert });
    try {
      return await client.send({ url: receiver.url(), headers: {}, body: '{}', eventType: 'moved-in' });
    } finally {
      await client.close();
    }
  };

  it('refuses a receiver whose certificate it does not trust, and says so', async () => {
    const response = await send(trusted);
    expect(response).toMatchObject({ kind: 'error', timedOut: false, error: expect.stringMatching(/certificate/i) });
    expect(receiver.requests).toHaveLength(0);
  });

  it('delivers to a receiver whose certificate it trusts', async () => {
    expect(await send(stranger)).toMatchObject({ kind: 'response', statusCode: 204 });
    expect(receiver.requests).toHaveLength(1);
  });
});
