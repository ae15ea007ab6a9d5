import path from 'node:path';
import { expectBootRefused } from '@storage/testing';

describe('booting with a bad configuration', () => {
  it('stops at once with a message naming each variable at fault', () => {
    expectBootRefused(path.resolve(__dirname, '../../dist/main.js'), 'DISPATCHER_PORT');
  });
});
