import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, EventFilter, getEvent, listEvents, presentEvent } from '../domain/events.js';
import { createRule, deleteRule, getRule, listRules, presentRule, updateRule } from '../domain/rules.js';
import {
  createStrategy, deleteStrategy, getStrategy, listStrategies, presentRelation, presentStrategy, relate, unrelate, updateStrategy, vetStrategy,
} from '../domain/strategies.js';
import { DeliveryFilter, getDelivery, listDeliveries, presentDelivery, retryDelivery } from '../domain/deliveries.js';
import { EXPIRE_OLD, ExpireOld, readSecret, rotateSecret } from '../domain/signing.js';
import { sendTestEvent } from '../domain/webhook-test.js';
import { E } from '../errors.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPage } from '../domain/validate.js';
import { anyBody, nullableInt, nullableString, nullableTime, timestamp } from '../http/schemas.js';

const strings = { type: 'array', items: { type: 'string' } };
const scalar = { type: ['string', 'number', 'boolean'] };

const ruleSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, event_resource: { type: 'string' }, event_types: strings,
    constraints: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, operator: { type: 'string' }, value: { anyOf: [scalar, { type: 'array', items: scalar }] } },
      },
    },
    strategies: strings, created_at: timestamp, updated_at: timestamp,
  },
};

const strategySchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, mode: { type: 'string' }, url: nullableString,
    email_address: nullableString, phone_number: nullableString, rules: strings, created_at: timestamp, updated_at: timestamp,
  },
};

const relationSchema = {
  type: 'object',
  properties: { class: { type: 'string' }, rule_id: { type: 'string' }, strategy_id: { type: 'string' }, created_at: timestamp },
};

/** An event as stored: `data` is the object as the API shows it (already an allow-listed presentation). */
export const eventSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, type: { type: 'string' }, resource: { type: 'string' },
    created_at: timestamp, dispatched_at: nullableTime, data: { type: 'object', additionalProperties: true },
  },
};

const attemptSchema = {
  type: 'object',
  properties: {
    attempt: { type: 'integer' }, at: timestamp, status_code: nullableInt, error: nullableString, duration_ms: nullableInt,
  },
};

const deliverySchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'integer' }, event_id: { type: 'string' }, event_type: { type: 'string' },
    rule_id: { type: 'string' }, strategy_id: { type: 'string' }, mode: { type: 'string' }, target: { type: 'string' },
    status: { type: 'string' }, attempt_count: { type: 'integer' }, next_attempt_at: nullableTime, last_status_code: nullableInt,
    last_error: nullableString, delivered_at: nullableTime, outbox_id: nullableInt, created_at: timestamp,
    attempts: { type: 'array', items: attemptSchema },
  },
};

/** POST /webhooks/strategies/:id/test: what one test request got (domain/webhook-test.ts). */
const testEventSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, strategy_id: { type: 'string' }, url: { type: 'string' }, event_id: { type: 'string' },
    status: { type: 'string', enum: ['delivered', 'failed'] }, status_code: nullableInt, error: nullableString, duration_ms: nullableInt,
  },
};

const secretSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, env: { type: 'string' }, secret: { type: 'string' }, created_at: timestamp,
    previous_secret_expires_at: nullableTime,
  },
};

const rotateBody = {
  type: 'object',
  properties: { expire_old: { type: 'string', enum: Object.keys(EXPIRE_OLD) } },
};

const catalogueSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    resources: { type: 'array', items: { type: 'object', properties: { resource: { type: 'string' }, event_types: strings } } },
  },
};

const success = { type: 'object', properties: { success: { type: 'boolean' } } };
// Bodies stay loose: the domain reads JSON and form strings alike and answers with clear codes.

type WithId = { Params: { id: string } };
type Relation = { Params: { rule_id: string; strategy_id: string } };

/** Spec 4.10: webhook rules, strategies and their relations, plus the event catalogue, events, deliveries and the signing secret. */
export default async function webhookRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  const query = (req: { query: unknown }) => (req.query ?? {}) as Record<string, unknown>;

  // --- catalogue and events ------------------------------------------------------------------------
  app.get('/webhooks/event_types', { schema: { response: { 200: catalogueSchema } } }, async () => ({
    class: 'event_catalogue',
    resources: Object.entries(EVENT_TYPES).map(([resource, types]) => ({ resource, event_types: [...types] })),
  }));

  app.get('/events', { schema: { response: { 200: listSchema(eventSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listEvents(db, req.identity, page, query(req) as EventFilter);
    return listEnvelope(list.map(presentEvent), page, total);
  });

  app.get<WithId>('/events/:id', { schema: { response: { 200: eventSchema } } }, async (req) =>
    presentEvent(await getEvent(db, req.identity, req.params.id)),
  );

  // --- rules ---------------------------------------------------------------------------------------
  app.get('/webhooks/rules', { schema: { response: { 200: listSchema(ruleSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listRules(db, req.identity, page);
    return listEnvelope(list.map(presentRule), page, total);
  });

  const replayRule: IdempotentReplay = async (req, id) => presentRule(await getRule(db, req.identity, id));
  const replayStrategy: IdempotentReplay = async (req, id) => presentStrategy(await getStrategy(db, req.identity, id));
  app.post('/webhooks/rules', { config: { idempotentReplay: replayRule }, schema: { body: anyBody, response: { 200: ruleSchema } } }, async (req) =>
    presentRule(await req.tx((q) => createRule(q, req.identity, body(req), req.now), { resource: (r) => r.id })),
  );

  app.get<WithId>('/webhooks/rules/:id', { schema: { response: { 200: ruleSchema } } }, async (req) =>
    presentRule(await getRule(db, req.identity, req.params.id)),
  );

  // The spec writes the update path in the singular; the plural is accepted as well.
  for (const path of ['/webhooks/rule/:id', '/webhooks/rules/:id']) {
    app.put<WithId>(path, { schema: { body: anyBody, response: { 200: ruleSchema } } }, async (req) =>
      presentRule(await req.tx((q) => updateRule(q, req.identity, req.params.id, body(req), req.now))),
    );
  }

  app.delete<WithId>('/webhooks/rules/:id', { schema: { response: { 200: success } } }, async (req) => {
    await deleteRule(db, req.identity, req.params.id);
    return { success: true };
  });

  // --- relations -----------------------------------------------------------------------------------
  app.post<{ Params: { rule_id: string } }>('/webhooks/rules/:rule_id/strategies', { schema: { body: anyBody, response: { 200: relationSchema } } },
    async (req) => presentRelation(await req.tx((q) => relate(q, req.identity, req.params.rule_id, body(req).strategy_id, req.now))),
  );

  app.delete<Relation>('/webhooks/rules/:rule_id/strategies/:strategy_id', { schema: { response: { 200: success } } }, async (req) => {
    await req.tx((q) => unrelate(q, req.identity, req.params.rule_id, req.params.strategy_id));
    return { success: true };
  });

  // --- strategies ----------------------------------------------------------------------------------
  app.get('/webhooks/strategies', { schema: { response: { 200: listSchema(strategySchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listStrategies(db, req.identity, page);
    return listEnvelope(list.map(presentStrategy), page, total);
  });

  app.post('/webhooks/strategies', { config: { idempotentReplay: replayStrategy }, schema: { body: anyBody, response: { 200: strategySchema } } }, async (req) => {
    await vetStrategy(db, req.identity, body(req)); // resolves the url's host: before the transaction
    return presentStrategy(await req.tx((q) => createStrategy(q, req.identity, body(req), req.now), { resource: (s) => s.id }));
  });

  app.get<WithId>('/webhooks/strategies/:id', { schema: { response: { 200: strategySchema } } }, async (req) =>
    presentStrategy(await getStrategy(db, req.identity, req.params.id)),
  );

  app.put<WithId>('/webhooks/strategies/:id', { schema: { body: anyBody, response: { 200: strategySchema } } }, async (req) => {
    await vetStrategy(db, req.identity, body(req), req.params.id); // resolves the url's host: before the transaction
    return presentStrategy(await req.tx((q) => updateStrategy(q, req.identity, req.params.id, body(req), req.now)));
  });

  app.delete<WithId>('/webhooks/strategies/:id', { schema: { response: { 200: success } } }, async (req) => {
    await deleteStrategy(db, req.identity, req.params.id);
    return { success: true };
  });

  // A signed sample event to the strategy's URL now (nothing stored); the dashboard's "send test event".
  app.post<WithId>('/webhooks/strategies/:id/test', {
    config: { errors: [E.STRATEGY_NOT_FOUND, E.WEBHOOK_NOT_A_WEBHOOK] },
    schema: { summary: 'Send a signed test event to a webhook strategy now (nothing stored)', response: { 200: testEventSchema } },
  }, async (req) => ({
    class: 'webhook_test',
    ...(await sendTestEvent({ db, vault, clock }, req.identity, req.params.id, req.now)),
  }));

  // --- deliveries ----------------------------------------------------------------------------------
  app.get('/webhooks/deliveries', { schema: { response: { 200: listSchema(deliverySchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listDeliveries(db, req.identity, page, query(req) as DeliveryFilter);
    return listEnvelope(list.map(presentDelivery), page, total);
  });

  app.get<WithId>('/webhooks/deliveries/:id', { schema: { response: { 200: deliverySchema } } }, async (req) =>
    presentDelivery(await getDelivery(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/webhooks/deliveries/:id/retry', { schema: { response: { 200: deliverySchema } } }, async (req) => {
    // Network retries run on real time (the callback queue's rule), not on a test clock.
    const row = await req.tx((q) => retryDelivery(q, req.identity, req.params.id, req.now));
    (row.outbox_id !== null ? app.services.notify : app.services.scheduler)?.kick();
    return presentDelivery(row);
  });

  // --- signing secret ------------------------------------------------------------------------------
  app.get('/webhooks/secret', { schema: { response: { 200: secretSchema } } }, async (req) =>
    readSecret(db, vault, req.identity, req.now),
  );

  // Not idempotent on purpose: a stored answer would keep the secret in clear for 24 hours
  // (idempotency_keys); a repeated rotation is harmless, and its answer is the secret in force.
  app.post<{ Body: { expire_old?: ExpireOld } | undefined }>('/webhooks/secret/rotate', {
    schema: { body: rotateBody, response: { 200: secretSchema } },
    onRequest: async (req) => {
      delete req.headers['idempotency-key'];
    },
  }, async (req) => req.tx((q) => rotateSecret(q, vault, req.identity, req.now, req.body?.expire_old ?? 'now')));
}
