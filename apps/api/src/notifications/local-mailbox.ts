import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContactMethod } from '../model/lease.entity';

export interface DeliveredMessage {
  notificationUuid: string;
  sentAt: Date;
  channel: ContactMethod;
  recipient: string;
  subject: string;
  /** The full text, secret included. */
  text: string;
}

/** A header's value on one line, whatever the subject or recipient holds. */
const headerValue = (value: string): string => value.replace(/[\r\n]+/g, ' ');

/**
 * A local mail catcher's directory: one file per message, `<UTC time, ISO 8601 basic>-<notificationUuid>.txt`, so
 * names sort by time, with To and Subject headers and the full text. Only its owner reads it: the directory is made
 * 0700 and every file 0600, as the texts carry signing links and verification codes.
 */
export class LocalMailbox {
  constructor(readonly directory: string) {}

  /** Writes the message (never over another file) and answers its path. */
  async deliver(message: DeliveredMessage): Promise<string> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = path.join(this.directory, `${message.sentAt.toISOString().replace(/[-:]/g, '')}-${message.notificationUuid}.txt`);
    const headers = [
      `Date: ${message.sentAt.toUTCString()}`,
      `To: ${headerValue(message.recipient)}`,
      `Subject: ${headerValue(message.subject)}`,
      `X-Channel: ${message.channel}`,
      `X-Notification-Uuid: ${message.notificationUuid}`,
    ];
    await writeFile(file, `${headers.join('\n')}\n\n${message.text}\n`, { mode: 0o600, flag: 'wx' });
    return file;
  }
}
