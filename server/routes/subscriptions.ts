import type { FastifyInstance } from 'fastify';
import {
  SubscriptionFilter, getSubscription, listSubscriptions, presentSubscription, subscriptionOfCustomerOnPlan, updateSubscription,
  withLastBillings,
} from '../domain/subscriptions.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPageOrAll } from '../domain/validate.js';
import { billingSchema } from './billings.js';
import { anyBody, nullableInt, nullableString, nullableTime as nullableTimestamp, string as str, timestamp } from '../http/schemas.js';


/** Spec 2.10 leaves the subscription record open: docs/decisions.md, Recurring billing › Subscriptions. */
export const subscriptionSchema = {
  type: 'object',
  properties: {
    class: str, id: { type: 'integer' }, plan_id: { type: 'integer' }, customer_id: str, method_id: nullableString,
    status: str, amount: { type: 'integer' }, frequency: str, day: nullableInt, ends_after: nullableInt,
    billings_count: { type: 'integer' }, next_billing: nullableTimestamp, bill_immediately: { type: 'boolean' },
    charge_bank_account: { type: ['boolean', 'null'] }, metadata: { type: 'object', additionalProperties: true },
    created_at: timestamp, updated_at: timestamp, cancelled_at: nullableTimestamp,
    last_billing: { ...billingSchema, type: ['object', 'null'] },
  },
};

const list = { response: { 200: listSchema(subscriptionSchema) } };
const pairSchema = {
  type: 'object',
  properties: { ...subscriptionSchema.properties, subscriptions: { type: 'array', items: subscriptionSchema } },
};

/** Spec 4.9, plus GET and POST /subscriptions/:id. */
export default async function subscriptionRoutes(app: FastifyInstance) {
  const { db } = app.services;

  const lister = (filter: (params: Record<string, string>) => SubscriptionFilter) =>
    async (req: { query: unknown; params: unknown; identity: any }) => {
      const page = readPageOrAll(req.query);
      const { list: rows, total } = await listSubscriptions(db, req.identity, filter(req.params as Record<string, string>), page);
      return listEnvelope(rows.map(presentSubscription), page, total);
    };

  app.get('/subscriptions', { schema: list }, lister(() => ({})));
  app.get('/subscriptions/customer/:customer_id', { schema: list }, lister((p) => ({ customerId: p.customer_id })));
  app.get('/subscriptions/plan/:plan_id', { schema: list }, lister((p) => ({ planId: p.plan_id })));
  // One object, as clients of the live service read it (the active one, else the newest); the
  // pair's whole history is its `subscriptions` list.
  app.get<{ Params: { plan_id: string; customer_id: string } }>('/subscriptions/plan/:plan_id/customer/:customer_id',
    { schema: { response: { 200: pairSchema } } }, async (req) => {
      const { subscription, all } = await subscriptionOfCustomerOnPlan(db, req.identity, req.params.plan_id, req.params.customer_id);
      return { ...presentSubscription(subscription), subscriptions: all.map(presentSubscription) };
    });

  app.get<{ Params: { id: string } }>('/subscriptions/:id', { schema: { response: { 200: subscriptionSchema } } }, async (req) => {
    const [s] = await withLastBillings(db, [await getSubscription(db, req.identity, req.params.id)]);
    return presentSubscription(s);
  });

  /** Changes amount, method (method_id / charge_bank_account), ends_after, metadata of an active subscription. */
  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
    '/subscriptions/:id',
    { schema: { body: anyBody, response: { 200: subscriptionSchema } } },
    async (req) => {
      const s = await req.tx((q) => updateSubscription(q, req.identity, req.params.id, req.body ?? {}, req.now));
      return presentSubscription((await withLastBillings(db, [s]))[0]);
    },
  );
}
