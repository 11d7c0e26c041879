import type { FastifyInstance } from 'fastify';
import { KeyIdentity } from '../domain/keys.js';
import { createToken, getToken, presentToken } from '../domain/tokens.js';
import { E, GatewayError } from '../errors.js';
import { identify, nowFor } from '../http/auth.js';
import { assertNoNul } from '../lib/input.js';
import { toGatewayError } from '../http/errors.js';
import { checkCallback, jsonpBody } from '../http/jsonp.js';
import { nullableInt, nullableString, timestamp } from '../http/schemas.js';


/** The allow-list of what a token response may carry: never a number, a CVV or an account number. */
const tokenProperties = {
  class: { type: 'string' },
  id: { type: 'string' },
  token_type: { type: 'string' },
  card_type: nullableString,
  card_owner_name: nullableString,
  last_4: nullableString,
  card_exp_month: nullableInt,
  card_exp_year: nullableInt,
  bank_routing_number: nullableString,
  bank_account_holder_first_name: nullableString,
  bank_account_holder_last_name: nullableString,
  bank_account_type: nullableString,
  created_at: timestamp,
  expires_at: timestamp,
  used: { type: 'boolean' },
};
const createdToken = {
  type: 'object',
  properties: { ...tokenProperties, bin_brand: nullableString, bin_type: nullableString, bin_level: nullableString },
};
const savedToken = { type: 'object', properties: tokenProperties };

/** Payment data parameters (spec 4.2); validation is the domain's, so codes match the spec. */
const paymentData = {
  type: 'object',
  properties: Object.fromEntries(
    ['token_type', 'card_owner_name', 'card_number', 'card_exp_month', 'card_exp_year', 'csc', 'cvv',
      'bank_account_number', 'bank_routing_number', 'bank_account_holder_first_name',
      'bank_account_holder_last_name', 'bank_account_type', 'address_1', 'address_2', 'city', 'state',
      'zip', 'country', 'amount'].map((k) => [k, { type: ['string', 'number', 'null'] }]),
  ),
};

export default async function tokenRoutes(app: FastifyInstance) {
  const { db, vault, clock, limiter } = app.services;

  app.get('/tokens/jsonp', { config: { access: 'none' } }, async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const callback = checkCallback(query.callback); // before any work: a bad name gets plain JSON 400
    let payload: string;
    const now = clock.now();
    let id: KeyIdentity | null = null;
    try {
      assertNoNul(query, 'query');
      await limiter?.checkIp(req.ip, now);
      const key = typeof query.public_api_key === 'string' ? query.public_api_key : null;
      // A private key here sits in a web page: answered as an unknown key, recorded for the merchant.
      id = await identify(app, req, key, now, { browser: true });
      await limiter?.checkKey(id, req.ip, now);
      const token = await createToken(db, vault, id, query, nowFor(id, now));
      payload = reply.serializeInput(presentToken(token, { withBin: true }), createdToken);
    } catch (err) {
      let ge = toGatewayError(err as Error);
      if (!ge) {
        req.log.error({ err }, 'token creation failed');
        ge = new GatewayError(E.TOKEN_RETRY);
      }
      await limiter?.noteFailure(id, req.ip, ge, now);
      if (ge.details.retry_after) reply.header('retry-after', ge.details.retry_after);
      payload = JSON.stringify(ge.toJSON());
    }
    // Errors travel through the callback with status 200: a browser drops the body of a failed script load.
    // Returned: an async handler that only calls send() is answered twice when an onSend hook is
    // asynchronous, and Fastify's warning about it quotes the URL, card data and key included.
    return reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(jsonpBody(callback, payload));
  });

  app.post(
    '/tokens',
    { config: { access: 'public' }, schema: { body: paymentData, response: { 200: createdToken } } },
    async (req, reply) => {
      const now = clock.now(); // limits count real time; the token lives on the merchant's clock
      await limiter?.checkIp(req.ip, now);
      await limiter?.checkKey(req.identity, req.ip, now);
      try {
        const token = await createToken(db, vault, req.identity, (req.body ?? {}) as Record<string, unknown>, req.now);
        reply.header('cache-control', 'no-store');
        return presentToken(token, { withBin: true });
      } catch (err) {
        if (err instanceof GatewayError) await limiter?.noteFailure(req.identity, req.ip, err, now);
        throw err;
      }
    },
  );

  app.get<{ Params: { token_id: string } }>(
    '/tokens/:token_id',
    { schema: { response: { 200: savedToken } } },
    async (req) => {
      const token = await getToken(db, req.identity, req.params.token_id);
      if (!token) throw new GatewayError(E.TOKEN_NOT_FOUND);
      return presentToken(token, { withBin: false });
    },
  );
}
