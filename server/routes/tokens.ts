import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Side, sideOf } from '../domain/merchant/allowed-origins.js';
import { KeyIdentity } from '../domain/merchant/keys.js';
import { createToken, getToken } from '../domain/instruments/tokens.js';
import { CreatedTokenSchema, JsonpFields, TokenFields, TokenSchema, presentToken } from '../schemas/tokens.js';
import { E, GatewayError } from '../errors.js';
import { identify, nowFor } from '../http/auth.js';
import { assertNoNul } from '../lib/input.js';
import { toGatewayError } from '../http/errors.js';
import { checkCallback, jsonpBody } from '../http/jsonp.js';


export default async function tokenRoutes(app: FastifyInstance) {
  const { db, vault, clock, limiter } = app.services;
  /**
   * Which side of the card-testing counts a request is on: `checkout` when its page is one of the
   * merchant's allowed_origins. Looked up (through a 5 s cache) only when some limit is on.
   */
  const sideFor = async (req: FastifyRequest, id: KeyIdentity, now: Date): Promise<Side> =>
    (limiter?.countsSides(id) ? sideOf(db, id, req.headers, now.getTime()) : 'other');

  app.get('/tokens/jsonp', {
    // No HEAD twin: it would make a token whose answer nobody reads (a script tag only GETs).
    exposeHeadRoute: false,
    config: { access: 'none', errors: [E.JSONP_CALLBACK_INVALID], readsInput: 'handler' },
    schema: {
      summary: 'Tokenize from a web page (JSONP)',
      description: "The tokenizer's script load: answers `callback({...})` with status 200, the token or `{ errors }` inside, as POST /tokens would (key, card and rate-limit codes).",
      querystring: JsonpFields,
      produces: { 'application/javascript': { schema: { type: 'string' }, example: 'Tessera.callback_1({"class":"token","id":"tok_4f3c2b1a0e9d8c7b"});' } },
    },
  }, async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const callback = checkCallback(query.callback); // before any work: a bad name gets plain JSON 400
    let payload: string;
    const now = clock.now();
    let id: KeyIdentity | null = null;
    let side: Side = 'other';
    try {
      assertNoNul(query, 'query');
      const key = typeof query.public_api_key === 'string' ? query.public_api_key : null;
      // A private key here sits in a web page: answered as an unknown key, recorded for the merchant.
      id = await identify(app, req, key, now, { browser: true });
      side = await sideFor(req, id, now);
      await limiter?.checkKey(id, req.ip, now, side);
      const token = await createToken(db, vault, id, TokenFields.read(query), nowFor(id, now));
      payload = reply.serializeInput(presentToken(token, { withBin: true }), CreatedTokenSchema);
    } catch (err) {
      let ge = toGatewayError(err as Error);
      if (!ge) {
        req.log.error({ err }, 'token creation failed');
        ge = new GatewayError(E.TOKEN_RETRY);
      }
      await limiter?.noteFailure(id, req.ip, ge, now, side);
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
    {
      config: {
        // Read in the handler, after the card-testing limits: a refused field counts against them as a refused card does.
        readsInput: 'handler',
        access: 'public',
        errors: [E.CARD_NUMBER_INVALID, E.VISA_INVALID, E.MASTERCARD_INVALID, E.AMEX_INVALID, E.DINERS_INVALID, E.DISCOVER_INVALID,
          E.CSC_INVALID, E.ACCOUNT_UNVERIFIABLE, E.TOKEN_AMOUNT_INVALID, E.REAL_CARD_IN_TEST, E.TOKEN_RETRY, E.DATA_KEY_RETIRED],
      },
      schema: { summary: 'Tokenize a card or bank account', body: TokenFields, response: { 200: CreatedTokenSchema } },
    },
    async (req, reply) => {
      const now = clock.now(); // limits count real time; the token lives on the merchant's clock
      // The card-testing limits guard the public key, which every checkout page shows. A private
      // key tokenizes from the merchant's own server: its address stands for every shopper of the
      // merchant, so one shopper's typos would stop them all; and the key can charge a card as is.
      const limits = req.identity.kind === 'pk' ? limiter : undefined;
      const side = limits ? await sideFor(req, req.identity, now) : 'other';
      await limits?.checkKey(req.identity, req.ip, now, side);
      try {
        const token = await createToken(db, vault, req.identity, TokenFields.read(req.body), req.now);
        reply.header('cache-control', 'no-store');
        return presentToken(token, { withBin: true });
      } catch (err) {
        if (err instanceof GatewayError) await limits?.noteFailure(req.identity, req.ip, err, now, side);
        throw err;
      }
    },
  );

  app.get<{ Params: { token_id: string } }>(
    '/tokens/:token_id',
    { config: { errors: [E.TOKEN_NOT_FOUND] }, schema: { summary: 'Retrieve a token (never its number)', response: { 200: TokenSchema } } },
    async (req) => {
      const token = await getToken(db, req.identity, req.params.token_id);
      if (!token) throw new GatewayError(E.TOKEN_NOT_FOUND);
      return presentToken(token, { withBin: false });
    },
  );
}
