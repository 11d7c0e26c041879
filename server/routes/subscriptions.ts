import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  SubscriptionFilter, getSubscription, listSubscriptions, subscriptionOfCustomerOnPlan, updateSubscription,
  withLastBillings,
} from '../domain/billing/subscriptions.js';
import { listEnvelope } from '../http/paging.js';
import { SubscribeFields } from '../schemas/plans.js';
import { AllQuery, SubscriptionList, SubscriptionPair, SubscriptionSchema, presentSubscription } from '../schemas/subscriptions.js';
import { E, type ErrorCode } from '../errors.js';


/** Spec 4.9, plus GET and POST /subscriptions/:id. */
export default async function subscriptionRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const lister = (filter: (params: Record<string, string>) => SubscriptionFilter) =>
    async (req: FastifyRequest) => {
      const page = AllQuery.from(req);
      const { list: rows, total } = await listSubscriptions(db, req.identity, filter(req.params as Record<string, string>), page);
      return listEnvelope(rows.map(presentSubscription), page, total);
    };

  const list = (summary: string, errors: ErrorCode[] = []) => ({
    config: { errors: [E.PAGE_INVALID, ...errors] }, schema: { summary, querystring: AllQuery, response: { 200: SubscriptionList } },
  });
  app.get('/subscriptions', list('List subscriptions (all of them without a limit)'), lister(() => ({})));
  app.get('/subscriptions/customer/:customer_id', list("List a customer's subscriptions", [E.CUSTOMER_NOT_FOUND]), lister((p) => ({ customerId: p.customer_id })));
  app.get('/subscriptions/plan/:plan_id', list("List a plan's subscriptions", [E.PLAN_NOT_FOUND]), lister((p) => ({ planId: p.plan_id })));
  // One object, as clients of the live service read it (the active one, else the newest); the
  // pair's whole history is its `subscriptions` list.
  app.get<{ Params: { plan_id: string; customer_id: string } }>('/subscriptions/plan/:plan_id/customer/:customer_id',
    { config: { errors: [E.PLAN_NOT_FOUND, E.CUSTOMER_NOT_FOUND, E.SUBSCRIPTION_NOT_FOUND] }, schema: { summary: 'Retrieve the subscription of a customer on a plan, with their history', response: { 200: SubscriptionPair } } }, async (req) => {
      const { subscription, all } = await subscriptionOfCustomerOnPlan(db, req.identity, req.params.plan_id, req.params.customer_id);
      return { ...presentSubscription(subscription), subscriptions: all.map(presentSubscription) };
    });

  app.get<{ Params: { id: string } }>('/subscriptions/:id', { config: { errors: [E.SUBSCRIPTION_NOT_FOUND] }, schema: { summary: 'Retrieve a subscription', response: { 200: SubscriptionSchema } } }, async (req) => {
    const [s] = await withLastBillings(db, [await getSubscription(db, req.identity, req.params.id)]);
    return presentSubscription(s);
  });

  /** Changes amount, method (method_id / charge_bank_account), ends_after, metadata of an active subscription. */
  app.post<{ Params: { id: string } }>(
    '/subscriptions/:id',
    {
      config: { errors: [E.SUBSCRIPTION_NOT_FOUND, E.SUBSCRIPTION_NOT_ACTIVE, E.METHOD_NOT_FOUND, E.PAYMENT_TOKEN_NOT_FOUND, E.AMOUNT_INVALID] },
      schema: { summary: 'Change an active subscription (amount, method, ends_after, metadata)', body: SubscribeFields, response: { 200: SubscriptionSchema } },
    },
    async (req) => {
      const s = await req.tx((q) => updateSubscription(q, req.identity, req.params.id, SubscribeFields.from(req), req.now));
      return presentSubscription((await withLastBillings(db, [s]))[0]);
    },
  );
}
