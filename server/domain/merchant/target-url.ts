import { E, GatewayError } from '../../errors.js';
import { OutboundPolicy, vetUrl } from '../../net/outbound.js';
import type { Scope } from './keys.js';

/**
 * URL01 unless the host of a URL a merchant gives (a webhook strategy's url, a plan's
 * callback_url) may be called from its environment: public addresses; loopback too in test mode
 * on a development gateway (`serve --dev`, the QA kit, TESSERA_TEST_LOOPBACK=on); what the
 * operator allows (TESSERA_OUTBOUND_ALLOW). See server/net/outbound.ts. It resolves the name, so
 * callers run it before opening a transaction where they can; every delivery checks the address
 * again when it connects.
 */
export async function vetTargetUrl(scope: Scope, url: string, field: string, policy?: OutboundPolicy): Promise<void> {
  const refused = await vetUrl(url, scope.env, policy);
  if (refused) {
    throw new GatewayError(E.URL_NOT_PUBLIC,
      `${field} refused: ${refused}; Tessera calls public addresses only (in test mode on a development gateway, loopback too) unless the gateway operator allows the target`);
  }
}
