import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, getEvent, listEvents } from '../domain/events/events.js';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../domain/events/rules.js';
import {
  createStrategy, deleteStrategy, getStrategy, listStrategies, relate, unrelate, updateStrategy, vetNewStrategy, vetStrategy,
} from '../domain/events/strategies.js';
import { getDelivery, listDeliveries, retryDelivery } from '../domain/events/deliveries.js';
import {
  CatalogueSchema, DeliveriesQuery, DeliverySchema, EventSchema, EventsQuery, ExpireOld, RelationFields, RelationSchema, RotateBody, RuleFields,
  RuleSchema, RuleUpdateFields, RulesQuery, SecretSchema, StrategiesQuery, StrategyFields, StrategySchema, StrategyUpdateFields, TestEventSchema,
  presentDelivery, presentEvent, presentRelation, presentRule, presentStrategy,
} from '../schemas/webhooks.js';
import { List, Success } from '../schemas/common.js';
import { readSecret, rotateSecret } from '../domain/merchant/signing.js';
import { sendTestEvent } from '../domain/events/webhook-test.js';
import { E } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';

type WithId = { Params: { id: string } };
type Relation = { Params: { rule_id: string; strategy_id: string } };

/** Spec 4.10: webhook rules, strategies and their relations, plus the event catalogue, events, deliveries and the signing secret. */
export default async function webhookRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;

  // --- catalogue and events ------------------------------------------------------------------------
  app.get('/webhooks/event_types', { schema: { summary: 'List the event types rules can match', response: { 200: CatalogueSchema } } }, async () => ({
    class: 'event_catalogue',
    resources: Object.entries(EVENT_TYPES).map(([resource, types]) => ({ resource, event_types: [...types] })),
  }));

  app.get('/events', { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List events, newest first', querystring: EventsQuery, response: { 200: List(EventSchema) } } }, async (req) => {
    const { limit, offset, ...filter } = EventsQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listEvents(db, req.identity, page, filter);
    return listEnvelope(list.map(presentEvent), page, total);
  });

  app.get<WithId>('/events/:id', { config: { errors: [E.EVENT_NOT_FOUND] }, schema: { summary: 'Retrieve an event', response: { 200: EventSchema } } }, async (req) =>
    presentEvent(await getEvent(db, req.identity, req.params.id)),
  );

  // --- rules ---------------------------------------------------------------------------------------
  app.get('/webhooks/rules', { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List webhook rules', querystring: RulesQuery, response: { 200: List(RuleSchema) } } }, async (req) => {
    const page = RulesQuery.from(req);
    const { list, total } = await listRules(db, req.identity, page);
    return listEnvelope(list.map(presentRule), page, total);
  });

  const replayRule: IdempotentReplay = async (req, id) => presentRule(await getRule(db, req.identity, id));
  const replayStrategy: IdempotentReplay = async (req, id) => presentStrategy(await getStrategy(db, req.identity, id));
  app.post('/webhooks/rules', {
    config: { idempotentReplay: replayRule, errors: [E.WEBHOOK_EVENT_UNKNOWN] },
    schema: { summary: 'Create a webhook rule (which events, on what conditions)', body: RuleFields, response: { 200: RuleSchema } },
  }, async (req) =>
    presentRule(await req.tx((q) => createRule(q, req.identity, RuleFields.from(req), req.now), { resource: (r) => r.id })),
  );

  app.get<WithId>('/webhooks/rules/:id', { config: { errors: [E.RULE_NOT_FOUND] }, schema: { summary: 'Retrieve a webhook rule', response: { 200: RuleSchema } } }, async (req) =>
    presentRule(await getRule(db, req.identity, req.params.id)),
  );

  // The spec writes the update path in the singular; the plural is accepted as well.
  for (const path of ['/webhooks/rule/:id', '/webhooks/rules/:id']) {
    app.put<WithId>(path, {
      config: { errors: [E.RULE_NOT_FOUND, E.WEBHOOK_EVENT_UNKNOWN] },
      schema: { summary: path.includes('/rule/') ? 'Update a webhook rule (the spec’s singular path)' : 'Update a webhook rule', body: RuleUpdateFields, response: { 200: RuleSchema } },
    }, async (req) =>
      presentRule(await req.tx((q) => updateRule(q, req.identity, req.params.id, RuleUpdateFields.from(req), req.now))),
    );
  }

  app.delete<WithId>('/webhooks/rules/:id', { config: { errors: [E.RULE_NOT_FOUND] }, schema: { summary: 'Delete a webhook rule', response: { 200: Success } } }, async (req) => {
    await deleteRule(db, req.identity, req.params.id);
    return { success: true };
  });

  // --- relations -----------------------------------------------------------------------------------
  app.post<{ Params: { rule_id: string } }>('/webhooks/rules/:rule_id/strategies', {
    config: { errors: [E.RULE_NOT_FOUND, E.STRATEGY_NOT_FOUND] },
    schema: { summary: 'Relate a strategy to a rule', body: RelationFields, response: { 200: RelationSchema } },
  },
    async (req) => presentRelation(await req.tx((q) => relate(q, req.identity, req.params.rule_id, RelationFields.from(req).strategy_id, req.now))),
  );

  app.delete<Relation>('/webhooks/rules/:rule_id/strategies/:strategy_id', { config: { errors: [E.RULE_NOT_FOUND, E.STRATEGY_NOT_FOUND] }, schema: { summary: 'Unrelate a strategy from a rule', response: { 200: Success } } }, async (req) => {
    await req.tx((q) => unrelate(q, req.identity, req.params.rule_id, req.params.strategy_id));
    return { success: true };
  });

  // --- strategies ----------------------------------------------------------------------------------
  app.get('/webhooks/strategies', { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List webhook strategies', querystring: StrategiesQuery, response: { 200: List(StrategySchema) } } }, async (req) => {
    const page = StrategiesQuery.from(req);
    const { list, total } = await listStrategies(db, req.identity, page);
    return listEnvelope(list.map(presentStrategy), page, total);
  });

  app.post('/webhooks/strategies', {
    config: { idempotentReplay: replayStrategy, errors: [E.URL_NOT_PUBLIC] },
    schema: { summary: 'Create a webhook strategy (where and how events are sent)', body: StrategyFields, response: { 200: StrategySchema } },
  }, async (req) => {
    const input = StrategyFields.from(req);
    await vetNewStrategy(req.identity, input); // resolves the url's host: before the transaction
    return presentStrategy(await req.tx((q) => createStrategy(q, req.identity, input, req.now), { resource: (s) => s.id }));
  });

  app.get<WithId>('/webhooks/strategies/:id', { config: { errors: [E.STRATEGY_NOT_FOUND] }, schema: { summary: 'Retrieve a webhook strategy', response: { 200: StrategySchema } } }, async (req) =>
    presentStrategy(await getStrategy(db, req.identity, req.params.id)),
  );

  app.put<WithId>('/webhooks/strategies/:id', {
    config: { errors: [E.STRATEGY_NOT_FOUND, E.URL_NOT_PUBLIC] }, schema: { summary: 'Update a webhook strategy', body: StrategyUpdateFields, response: { 200: StrategySchema } },
  }, async (req) => {
    const input = StrategyUpdateFields.from(req);
    await vetStrategy(db, req.identity, req.params.id, input); // resolves the url's host: before the transaction
    return presentStrategy(await req.tx((q) => updateStrategy(q, req.identity, req.params.id, input, req.now)));
  });

  app.delete<WithId>('/webhooks/strategies/:id', { config: { errors: [E.STRATEGY_NOT_FOUND] }, schema: { summary: 'Delete a webhook strategy', response: { 200: Success } } }, async (req) => {
    await deleteStrategy(db, req.identity, req.params.id);
    return { success: true };
  });

  // A signed sample event to the strategy's URL now; the dashboard's "send test event". It is listed
  // under GET /webhooks/deliveries as a test (event_type and rule_id `test`), and reaches no rule.
  app.post<WithId>('/webhooks/strategies/:id/test', {
    config: { errors: [E.STRATEGY_NOT_FOUND, E.WEBHOOK_NOT_A_WEBHOOK] },
    schema: { summary: 'Send a signed test event to a webhook strategy now (listed under deliveries as a test)', response: { 200: TestEventSchema } },
  }, async (req) => ({
    class: 'webhook_test',
    ...(await sendTestEvent({ db, vault, clock }, req.identity, req.params.id, req.now)),
  }));

  // --- deliveries ----------------------------------------------------------------------------------
  app.get('/webhooks/deliveries', { config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List webhook deliveries, newest first', querystring: DeliveriesQuery, response: { 200: List(DeliverySchema) } } }, async (req) => {
    const { limit, offset, ...filter } = DeliveriesQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listDeliveries(db, req.identity, page, filter);
    return listEnvelope(list.map(presentDelivery), page, total);
  });

  app.get<WithId>('/webhooks/deliveries/:id', { config: { errors: [E.DELIVERY_NOT_FOUND] }, schema: { summary: 'Retrieve a webhook delivery with its attempts', response: { 200: DeliverySchema } } }, async (req) =>
    presentDelivery(await getDelivery(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/webhooks/deliveries/:id/retry', { config: { errors: [E.DELIVERY_NOT_FOUND, E.DELIVERY_NOT_FAILED] }, schema: { summary: 'Queue a failed delivery again', response: { 200: DeliverySchema } } }, async (req) => {
    // Network retries run on real time (the callback queue's rule), not on a test clock.
    const row = await req.tx((q) => retryDelivery(q, req.identity, req.params.id, req.now));
    (row.outbox_id !== null ? app.services.notify : app.services.scheduler)?.kick();
    return presentDelivery(row);
  });

  // --- signing secret ------------------------------------------------------------------------------
  app.get('/webhooks/secret', { config: { errors: [E.DATA_KEY_MISMATCH, E.DATA_KEY_RETIRED] }, schema: { summary: 'Retrieve the signing secret (made on first read)', response: { 200: SecretSchema } } }, async (req) =>
    readSecret(db, vault, req.identity, req.now),
  );

  // Not idempotent on purpose: a stored answer would keep the secret in clear for 24 hours
  // (idempotency_keys); a repeated rotation is harmless, and its answer is the secret in force.
  app.post<{ Body: { expire_old?: ExpireOld } | undefined }>('/webhooks/secret/rotate', {
    config: { errors: [E.SECRET_ROTATION_PENDING, E.DATA_KEY_MISMATCH, E.DATA_KEY_RETIRED], idempotency: false },
    schema: { summary: 'Rotate the signing secret', body: RotateBody, response: { 200: SecretSchema } },
    onRequest: async (req) => {
      delete req.headers['idempotency-key'];
    },
  }, async (req) => req.tx((q) => rotateSecret(q, vault, req.identity, req.now, req.body?.expire_old ?? 'now')));
}
