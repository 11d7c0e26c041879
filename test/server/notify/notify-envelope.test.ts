import { afterEach, describe, expect, test } from 'vitest';
import { smtpTransport } from '../../../server/notify/email.js';
import { SendError } from '../../../server/notify/outbox.js';
import { SmtpSink, startSmtpSink } from './notify-fixtures.js';

// Issue 14 item 11: the SMTP server must see exactly the one recipient Tessera stored. The
// transport hands nodemailer the address as one object and names it alone in the envelope, and
// refuses (permanently) a stored value that is not one mailbox, so even an old row cannot fan out.

const open: SmtpSink[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function transport() {
  const sink = await startSmtpSink();
  open.push(sink);
  return { sink, email: smtpTransport({ url: sink.url, from: 'Shop <receipts@shop.test>', timeoutMs: 5000 }) };
}

const delivery = { id: 1, merchantId: 'm', env: 'test' as const, attempt: 1 };

describe('SMTP envelope', () => {
  test('one mailbox: the envelope names it alone; To: carries it', async () => {
    const { sink, email } = await transport();
    await email.send({ kind: 'email', to: 'ada@example.com', subject: 'S', text: 'T' }, delivery);
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0].to).toEqual(['ada@example.com']);
    expect(sink.mails[0].from).toBe('receipts@shop.test');
    expect(sink.mails[0].headers.to).toContain('ada@example.com');
    email.close?.();
  });

  test.each(['x<attacker@evil.example>', 'a,attacker@evil.example', 'ada@example.com, eve@evil.example',
    'ada@example.com\r\nRCPT TO:<eve@evil.example>', 'Ada <ada@example.com>'])(
    'a stored %j is never sent: permanent SendError, the server sees no recipient', async (to) => {
      const { sink, email } = await transport();
      const err = await email.send({ kind: 'email', to, subject: 'S', text: 'T' }, delivery).catch((e) => e);
      expect(err).toBeInstanceOf(SendError);
      expect(err.permanent).toBe(true);
      expect(sink.mails).toEqual([]);
      email.close?.();
    });
});
