import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadServiceConfig } from '../../src/config';
import { EmbeddedNotificationAdapter } from '../../src/notifications/embedded-notification.adapter';
import { SECRET_PLACEHOLDER, type OutgoingNotification } from '../../src/notifications/notification.port';
import { DEMO_PORTFOLIO_UUID } from '../../src/seed/demo-data';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { DOWNTOWN, leadWithLease, OPS } from '../support/lifecycle-flow';
import { id } from '../support/test-api';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
let scratch: string;
beforeAll(async () => {
  api = await startLifecycleApi();
  scratch = await mkdtemp(path.join(tmpdir(), 'mailbox-test-'));
});
afterAll(async () => {
  await api?.close();
  await rm(scratch, { recursive: true, force: true });
});

const GROUP = id('unit-group:downtown:5x10:1');
const FILE_NAME = /^\d{8}T\d{6}\.\d{3}Z-[0-9a-f-]{36}\.txt$/;
/** The walkthrough's step 5 (docs/first-rental.md): the newest signing link in the mailbox. */
const NEWEST_LINK = "grep -ho 'http[^ ]*/leases/sign/[^ ]*' mailbox/* | tail -1";
const newestLink = (): string => execFileSync('sh', ['-c', NEWEST_LINK], { cwd: api.dataDir, encoding: 'utf8' }).trim();
const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

/** The mailbox's files (oldest first, as their names sort) with their texts. */
async function mailboxFiles(directory: string): Promise<{ name: string; text: string }[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  return Promise.all(names.sort().map(async (name) => ({ name, text: await readFile(path.join(directory, name), 'utf8') })));
}

const message = (subject: string): OutgoingNotification => ({
  portfolioUuid: DEMO_PORTFOLIO_UUID,
  leadUuid: null,
  personUuid: null,
  channel: 'email',
  recipient: 'mailbox.test@example.com',
  subject,
  body: `Your code is ${SECRET_PLACEHOLDER}`,
  secret: '123456',
  leaseUuid: null,
});

describe('local mailbox of the embedded notification adapter', () => {
  it('holds each message operation 13 sent (0600 in a 0700 directory): its signing link opens the lease page, the listing hides it', async () => {
    const lead = await leadWithLease(api, GROUP, { firstName: 'Mo', lastName: 'Mailbox' });
    const mailbox = path.join(api.dataDir, 'mailbox');
    expect(await mode(mailbox)).toBe(0o700);
    const files = (await mailboxFiles(mailbox)).filter((file) => file.text.includes('To: mo.mailbox@example.com\n'));
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file.name).toMatch(FILE_NAME);
    expect(await mode(path.join(mailbox, file.name))).toBe(0o600);

    const link = newestLink();
    expect(link).toBe(lead.link);
    expect(link.startsWith(`${api.baseUrl}/leases/sign/`)).toBe(true);
    expect(file.text).toMatch(/^Date: .+ GMT\nTo: mo\.mailbox@example\.com\nSubject: Your lease at Downtown Self Storage\n/);
    expect(file.text).toContain(`\n\nHello Mo, your lease at Downtown Self Storage is ready to sign: ${link}\n`);

    // The link as the tenant got it, followed as a browser would.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign the lease');

    const listed = await api.call('GET', `${OPS}/notifications?leadUuid=${lead.leadUuid}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ body: expect.stringContaining(`ready to sign: ${SECRET_PLACEHOLDER}`) })]);
    expect(listed.text).not.toContain(link.split('/').at(-1));
    expect(file.name).toContain(listed.body[0].notificationUuid);
  });

  it('names files so they sort by time: sent again, the newest file holds the new link, the one before stops opening', async () => {
    const lead = await leadWithLease(api, GROUP, { firstName: 'Rhea', lastName: 'Again' });
    const sent = await api.call('POST', `${OPS}/facilities/${DOWNTOWN}/leads/${lead.leadUuid}/sendLease?contactMethod=sms`);
    expect(sent.body).toBe('Lease sent by sms.');
    const [newest] = (await mailboxFiles(path.join(api.dataDir, 'mailbox'))).slice(-1);
    expect(newest.text).toMatch(/^Date: .+\nTo: 6465550123\n/);
    const link = newestLink();
    expect(link).not.toBe(lead.link);
    expect(newest.text).toContain(link);
    expect((await fetch(link)).status).toBe(200);
    expect((await fetch(lead.link)).status).toBe(404);
  });

  it('writes a message once its transaction commits, and none of a transaction or savepoint rolled back', async () => {
    const directory = path.join(scratch, 'transactions', 'mailbox');
    const adapter = new EmbeddedNotificationAdapter(api.db, directory);
    try {
      await expect(
        api.db.transaction(async (manager) => {
          await adapter.send(message('rolled back'), manager);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await mailboxFiles(directory)).toEqual([]);

      await api.db.transaction(async (manager) => {
        await adapter.send(message('committed'), manager);
        await manager
          .transaction(async (savepoint) => {
            await adapter.send(message('savepoint rolled back'), savepoint);
            throw new Error('savepoint rolled back');
          })
          .catch(() => undefined);
        await manager.transaction((savepoint) => adapter.send(message('savepoint released'), savepoint));
        // A later savepoint rolled back takes back only its own messages, not those of one released before it.
        await manager.transaction(() => Promise.reject(new Error('another savepoint rolled back'))).catch(() => undefined);
        // Not before the commit.
        expect(await mailboxFiles(directory)).toEqual([]);
      });
      const subjects = (await mailboxFiles(directory)).map((file) => /^Subject: (.*)$/m.exec(file.text)![1]);
      expect(subjects).toEqual(['committed', 'savepoint released']);

      await expect(
        api.db.transaction(async (manager) => {
          await manager.transaction((savepoint) => adapter.send(message('released, then rolled back'), savepoint));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await adapter.send(message('outside a transaction'));
      const after = (await mailboxFiles(directory)).map((file) => /^Subject: (.*)$/m.exec(file.text)![1]);
      expect(after).toEqual(['committed', 'savepoint released', 'outside a transaction']);
      expect((await mailboxFiles(directory))[2].text).toContain('\n\nYour code is 123456\n');

      // The in-memory mailbox (tests) is as before: every message handed to the adapter.
      expect(adapter.mailbox.map((sent) => sent.subject)).toEqual([
        'rolled back',
        'committed',
        'savepoint rolled back',
        'savepoint released',
        'released, then rolled back',
        'outside a transaction',
      ]);
    } finally {
      adapter.onModuleDestroy();
    }
  });

  it('sends all the same when the mailbox cannot be written, with a warning', async () => {
    const blocked = path.join(scratch, 'not-a-directory');
    await writeFile(blocked, '');
    const adapter = new EmbeddedNotificationAdapter(api.db, path.join(blocked, 'mailbox'));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const { notificationUuid } = await api.db.transaction((manager) => adapter.send(message('unwritable'), manager));
      const stored = await query(api.db, sql<{ subject: string }>('SELECT subject FROM notifications WHERE uuid = $1'), [notificationUuid]);
      expect(stored).toEqual([{ subject: 'unwritable' }]);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ notificationUuid }), 'notification not written to the local mailbox');
    } finally {
      warn.mockRestore();
      adapter.onModuleDestroy();
    }
  });

  it('keeps no mailbox in production, nor without a directory', async () => {
    expect(loadServiceConfig({ DATA_DIR: '/srv/storage' }).mailboxDir).toBe(path.join('/srv/storage', 'mailbox'));
    expect(loadServiceConfig({}).mailboxDir).toBe(path.join('.data', 'mailbox'));
    const production = loadServiceConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(scratch, 'production'),
      PORTAL_TOKEN_SECRET: 'a-production-secret-of-at-least-32-characters',
      WEBHOOK_SECRET_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
    });
    expect(production.mailboxDir).toBeNull();

    const subscribers = api.db.subscribers.length;
    const adapter = new EmbeddedNotificationAdapter(api.db, production.mailboxDir);
    expect(api.db.subscribers).toHaveLength(subscribers);
    await api.db.transaction((manager) => adapter.send(message('production'), manager));
    expect(adapter.mailbox.at(-1)).toMatchObject({ subject: 'production', body: 'Your code is 123456' });
    await expect(stat(path.join(scratch, 'production'))).rejects.toThrow('ENOENT');
  });
});
