import { execFileSync } from 'node:child_process';
import path from 'node:path';

const MESSAGING = path.resolve(__dirname, '../dist/index.js');

/**
 * kafkajs used to be loaded by every service importing @storage/messaging, Kafka configured or not: about 10 MB of
 * RSS in each process of the embedded default. It is loaded when a Kafka client is first built.
 */
describe('@storage/messaging without Kafka', () => {
  it('does not load kafkajs until a Kafka client is built', () => {
    const script = `
      const messaging = require(${JSON.stringify(MESSAGING)});
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/kafkajs/'));
      const before = loaded();
      messaging.kafkaReadiness('127.0.0.1:1');
      console.log(JSON.stringify({ before, after: loaded() }));`;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual({ before: false, after: true });
  });
});
