import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emitEvent } from '../domain/events/events.js';
import { createPlan, deletePlan, getPlan, listPlans, vetPlan } from '../domain/billing/plans.js';
import { PlanFields, PlanSchema, SubscribeFields, presentPlan } from '../schemas/plans.js';
import { AllQuery, SubscriptionSchema, Unsubscribed, presentSubscription } from '../schemas/subscriptions.js';
import { List, Success } from '../schemas/common.js';
import { E } from '../errors.js';
import { getSubscription, subscribe, unsubscribe, withLastBillings } from '../domain/billing/subscriptions.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';
import { runSubscriptionNow } from '../jobs/scheduler.js';


type IdParams = { Params: { id: string } };
type SubParams = { Params: { id: string; customer_id: string } };

/** Spec 4.8: plans, and subscribing customers to them. */
export default async function planRoutes(app: FastifyInstance) {
  const { db, vault, clock, processors } = app.services;

  const replayPlan: IdempotentReplay = async (req, id) => presentPlan(await getPlan(db, req.identity, id));
  app.post('/plans', {
    config: { idempotentReplay: replayPlan, errors: [E.AMOUNT_INVALID, E.URL_NOT_PUBLIC] },
    schema: { summary: 'Create a plan', body: PlanFields, response: { 200: PlanSchema } },
  }, async (req) => {
    const input = PlanFields.from(req);
    await vetPlan(req.identity, input); // resolves the callback_url's host: before the transaction
    return presentPlan(await req.tx((q) => createPlan(q, req.identity, input, req.now), { resource: (p) => p.id }));
  });

  app.get('/plans', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List plans (all of them without a limit)', querystring: AllQuery, response: { 200: List(PlanSchema) } },
  }, async (req) => {
    const page = AllQuery.from(req);
    const { list, total } = await listPlans(db, req.identity, page);
    return listEnvelope(list.map(presentPlan), page, total);
  });

  app.get<IdParams>('/plans/:id', { config: { errors: [E.PLAN_NOT_FOUND] }, schema: { summary: 'Retrieve a plan', response: { 200: PlanSchema } } }, async (req) =>
    presentPlan(await getPlan(db, req.identity, req.params.id)),
  );

  app.delete<IdParams>('/plans/:id', { config: { errors: [E.PLAN_NOT_FOUND, E.PLAN_NOT_DELETABLE] }, schema: { summary: 'Delete a plan without active subscriptions', response: { 200: Success } } }, async (req) => {
    await req.tx((q) => deletePlan(q, req.identity, req.params.id, req.now));
    return { success: true };
  });

  /**
   * Subscribes; answers the subscription. With bill_immediately its first run is made before the
   * answer, and `last_billing` shows it (a decline leaves the subscription active, billing failed).
   */
  // The subscription is recorded by its number, the id the API shows.
  const replaySubscription: IdempotentReplay = async (req, number) => view(req, Number(number));
  app.post<SubParams>('/plans/:id/subscription/:customer_id', {
    config: { idempotentReplay: replaySubscription, errors: [E.PLAN_NOT_FOUND, E.CUSTOMER_NOT_FOUND, E.METHOD_NOT_FOUND, E.PAYMENT_TOKEN_NOT_FOUND, E.AMOUNT_INVALID, E.SUBSCRIPTION_EXISTS] },
    schema: { summary: 'Subscribe a customer to a plan', body: SubscribeFields, response: { 200: SubscriptionSchema } },
  }, async (req) => {
    const sub = await req.tx(async (q) => {
      const s = await subscribe(q, req.identity, req.params.id, req.params.customer_id, SubscribeFields.from(req), req.now);
      await emitEvent(q, req.identity, 'subscription.created', presentSubscription({ ...s, last_billing: null }), req.now);
      return s;
    }, { resource: (s) => s.number });
    if (sub.bill_immediately) {
      const run = await runSubscriptionNow({ db, vault, clock, processors, log: req.log, notify: app.services.notify }, req.identity, sub.number, req.now);
      if (run?.callback) app.services.scheduler?.kick();
    }
    return view(req, sub.number);
  });

  app.delete<SubParams>('/plans/:id/subscription/:customer_id', {
    config: { errors: [E.PLAN_NOT_FOUND, E.CUSTOMER_NOT_FOUND, E.SUBSCRIPTION_NOT_FOUND] },
    schema: { summary: "Unsubscribe a customer from a plan", response: { 200: Unsubscribed } },
  }, async (req) => {
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
