import { smtpTransport } from './email.js';
import { Transports } from './outbox.js';
import { webhookSmsTransport } from './sms.js';

export * from './outbox.js';

/** Transport settings from the environment (config.ts); absent ones leave messages in the outbox. */
export interface NotifyConfig {
  smtpUrl?: string;
  smtpFrom?: string;
  smsWebhookUrl?: string;
  smsWebhookSecret?: string;
  /** Milliseconds between outbox rounds. */
  intervalMs?: number;
}

export const DEFAULT_FROM = 'receipts@localhost';

export function createTransports(cfg: NotifyConfig = {}): Transports {
  return {
    email: cfg.smtpUrl ? smtpTransport({ url: cfg.smtpUrl, from: cfg.smtpFrom ?? DEFAULT_FROM }) : undefined,
    sms: cfg.smsWebhookUrl ? webhookSmsTransport({ url: cfg.smsWebhookUrl, secret: cfg.smsWebhookSecret }) : undefined,
  };
}
