import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emitEvent } from '../domain/events.js';
import { createPlan, deletePlan, getPlan, listPlans, presentPlan, vetPlan } from '../domain/plans.js';
import { getSubscription, presentSubscription, subscribe, unsubscribe, withLastBillings } from '../domain/subscriptions.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPageOrAll } from '../domain/validate.js';
import { runSubscriptionNow } from '../jobs/scheduler.js';
import { subscriptionSchema } from './subscriptions.js';
import { anyBody, string as str, timestamp } from '../http/schemas.js';


/** Spec 2.10 leaves the plan record open: docs/decisions.md, Recurring billing › Plans. */
export const planSchema = {
  type: 'object',
  properties: {
    class: str, id: { type: 'integer' }, name: str, frequency: str, day: { type: ['integer', 'null'] },
    amount: { type: 'integer' }, callback_url: { type: ['string', 'null'] }, active_subscriptions: { type: 'integer' },
    created_at: timestamp, updated_at: timestamp,
  },
};

const done = { type: 'object', properties: { success: { type: 'boolean' } } };
const unsubscribed = { type: 'object', properties: { success: { type: 'boolean' }, subscription: subscriptionSchema } };

type IdParams = { Params: { id: string } };
type SubParams = { Params: { id: string; customer_id: string }; Body: Record<string, unknown> };

/** Spec 4.8: plans, and subscribing customers to them. */
export default async function planRoutes(app: FastifyInstance) {
  const { db, vault, clock } = app.services;

  const replayPlan: IdempotentReplay = async (req, id) => presentPlan(await getPlan(db, req.identity, id));
  app.post<{ Body: Record<string, unknown> }>('/plans', { config: { idempotentReplay: replayPlan }, schema: { body: anyBody, response: { 200: planSchema } } }, async (req) => {
    const body = req.body ?? {};
    await vetPlan(req.identity, body); // resolves the callback_url's host: before the transaction
    return presentPlan(await req.tx((q) => createPlan(q, req.identity, body, req.now), { resource: (p) => p.id }));
  });

  app.get('/plans', { schema: { response: { 200: listSchema(planSchema) } } }, async (req) => {
    const page = readPageOrAll(req.query);
    const { list, total } = await listPlans(db, req.identity, page);
    return listEnvelope(list.map(presentPlan), page, total);
  });

  app.get<IdParams>('/plans/:id', { schema: { response: { 200: planSchema } } }, async (req) =>
    presentPlan(await getPlan(db, req.identity, req.params.id)),
  );

  app.delete<IdParams>('/plans/:id', { schema: { response: { 200: done } } }, async (req) => {
    await req.tx((q) => deletePlan(q, req.identity, req.params.id, req.now));
    return { success: true };
  });

  /**
   * Subscribes; answers the subscription. With bill_immediately its first run is made before the
   * answer, and `last_billing` shows it (a decline leaves the subscription active, billing failed).
   */
  // The subscription is recorded by its number, the id the API shows.
  const replaySubscription: IdempotentReplay = async (req, number) => view(req, Number(number));
  app.post<SubParams>('/plans/:id/subscription/:customer_id', { config: { idempotentReplay: replaySubscription }, schema: { body: anyBody, response: { 200: subscriptionSchema } } }, async (req) => {
    const sub = await req.tx(async (q) => {
      const s = await subscribe(q, req.identity, req.params.id, req.params.customer_id, req.body ?? {}, req.now);
      await emitEvent(q, req.identity, 'subscription.created', presentSubscription({ ...s, last_billing: null }), req.now);
      return s;
    }, { resource: (s) => s.number });
    if (sub.bill_immediately) {
      const run = await runSubscriptionNow({ db, vault, clock, log: req.log, notify: app.services.notify }, req.identity, sub.number, req.now);
      if (run?.callback) app.services.scheduler?.kick();
    }
    return view(req, sub.number);
  });

  app.delete<SubParams>('/plans/:id/subscription/:customer_id', { schema: { response: { 200: unsubscribed } } }, async (req) => {
    const sub = await req.tx(async (q) => {
      const s = await unsubscribe(q, req.identity, req.params.id, req.params.customer_id, req.now);
      await emitEvent(q, req.identity, 'subscription.cancelled', presentSubscription((await withLastBillings(q, [s]))[0]), req.now);
      return s;
    });
    return { success: true, subscription: await view(req, sub.number) };
  });

  async function view(req: FastifyRequest, number: number) {
    const [s] = await withLastBillings(db, [await getSubscription(db, req.identity, number)]);
    return presentSubscription(s);
  }
}
