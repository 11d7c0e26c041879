import { isEmail, normalisePhone } from '../lib/validate.js';
import type { MessageKind } from '../domain/events/outbox.js';

// Which test-mode messages may leave the gateway (docs/decisions/test-messages.md). A test key is
// easy to come by and a test charge costs nothing, so a test-mode message that reached SMTP or the
// SMS bridge would let anyone send mail of their wording from the operator's address. By default
// none does: the outbox worker marks it 'captured' where it would have sent it. The operator may
// name recipients that are really sent to (a staging mailbox): TESSERA_TEST_DELIVERY_TO.

export interface TestDelivery {
  /** Whether a test-mode message of `kind` to `to` may be handed to its transport. */
  allows(kind: MessageKind, to: string): boolean;
  /** The rule in one sentence, for the startup log. */
  readonly summary: string;
  /** `none`: every test-mode message is captured; `all` (`*`): every one is sent (a warning on a shared gateway). */
  readonly mode: 'none' | 'allow-list' | 'all';
}

type Entry = { kind: 'all' } | { kind: 'domain'; domain: string } | { kind: 'email'; address: string } | { kind: 'phone'; digits: string };

const digitsOf = (phone: string) => phone.replace(/^\+/, '');

function entryOf(raw: string): Entry {
  if (raw === '*') return { kind: 'all' };
  if (raw.startsWith('@')) {
    const domain = raw.slice(1).toLowerCase();
    if (!isEmail(`a@${domain}`)) throw new Error(`${JSON.stringify(raw)} is not @ and a domain name`);
    return { kind: 'domain', domain };
  }
  if (raw.includes('@')) {
    if (!isEmail(raw)) throw new Error(`${JSON.stringify(raw)} is not an email address`);
    return { kind: 'email', address: raw.toLowerCase() };
  }
  const phone = normalisePhone(raw);
  if (!phone) throw new Error(`${JSON.stringify(raw)} is not *, @domain, an email address or a phone number`);
  return { kind: 'phone', digits: digitsOf(phone) };
}

/**
 * TESSERA_TEST_DELIVERY_TO as a list: comma-separated `@domain` (every address at exactly that
 * domain, not its subdomains), `name@domain` (one address), phone numbers (`+15550100200`; spaces,
 * dashes, dots and brackets ignored) and `*` (everything). Throws naming the first bad entry.
 */
export function parseTestDeliveryTo(spec: string | undefined): string[] {
  const entries = (spec ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  for (const e of entries) entryOf(e);
  return entries;
}

/** The rule for a list parseTestDeliveryTo accepted; an empty list captures every test-mode message. */
export function testDelivery(list: readonly string[] = []): TestDelivery {
  const entries = list.map(entryOf);
  const everything = entries.some((e) => e.kind === 'all');
  const summary = everything
    ? 'test-mode email and SMS are sent like live ones (TESSERA_TEST_DELIVERY_TO=*)'
    : entries.length
      ? `test-mode email and SMS are sent only to ${list.join(', ')} (TESSERA_TEST_DELIVERY_TO); the rest are captured: kept in the outbox, never sent`
      : 'test-mode email and SMS are captured: kept in the outbox (GET /api/v1/outbox), never sent; TESSERA_TEST_DELIVERY_TO names recipients to send to';
  return {
    summary,
    mode: everything ? 'all' : entries.length ? 'allow-list' : 'none',
    allows(kind, to) {
      if (everything) return true;
      if (kind === 'email') {
        // Only a single plain address can match (the SMTP transport refuses anything else anyway).
        if (!isEmail(to)) return false;
        const address = to.toLowerCase();
        const domain = address.slice(address.lastIndexOf('@') + 1);
        return entries.some((e) => (e.kind === 'email' && e.address === address) || (e.kind === 'domain' && e.domain === domain));
      }
      const phone = normalisePhone(to);
      return phone !== null && entries.some((e) => e.kind === 'phone' && e.digits === digitsOf(phone));
    },
  };
}

/** No test-mode message is sent: the default, and what a worker built without a rule does. */
export const CAPTURE_ALL: TestDelivery = testDelivery([]);
