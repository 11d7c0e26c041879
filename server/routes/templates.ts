import type { FastifyInstance } from 'fastify';
import {
  createTemplate, deleteTemplate, getTemplate, listTemplates, presentTemplate, updateTemplate,
} from '../domain/templates.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { readPage } from '../domain/validate.js';
import { anyBody, nullableString } from '../http/schemas.js';


/** Spec 2.6: integer id and merchant_id, `+00:00` timestamps. */
export const templateSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'integer' }, merchant_id: { type: 'integer' },
    name: nullableString, subject: nullableString, receipt_text: { type: 'string' },
    created_at: { type: 'string' }, updated_at: { type: 'string' },
  },
};

// Bodies stay loose: the domain answers with the spec's codes (10302 without receipt_text).
type WithId = { Params: { id: string } };

/** Receipt templates (spec 4.4), plus a list, newest first. */
export default async function templateRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;

  app.get('/receipts/templates', { schema: { response: { 200: listSchema(templateSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const { list, total } = await listTemplates(db, req.identity, page);
    return listEnvelope(list.map(presentTemplate), page, total);
  });

  // A retry whose first attempt created the template but lost its answer (a crash) gets that template.
  const replay: IdempotentReplay = async (req, id) => presentTemplate(await getTemplate(db, req.identity, id));
  app.post('/receipts/templates', { config: { idempotentReplay: replay }, schema: { body: anyBody, response: { 200: templateSchema } } }, async (req) =>
    presentTemplate(await req.tx((q) => createTemplate(q, req.identity, body(req), req.now), { resource: (t) => t.id })),
  );

  app.get<WithId>('/receipts/templates/:id', { schema: { response: { 200: templateSchema } } }, async (req) =>
    presentTemplate(await getTemplate(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/receipts/templates/:id', { schema: { body: anyBody, response: { 200: templateSchema } } }, async (req) =>
    presentTemplate(await req.tx((q) => updateTemplate(q, req.identity, req.params.id, body(req), req.now))),
  );

  app.delete<WithId>(
    '/receipts/templates/:id',
    { schema: { response: { 200: { type: 'object', properties: { success: { type: 'boolean' } } } } } },
    async (req) => {
      await req.tx((q) => deleteTemplate(q, req.identity, req.params.id));
      return { success: true };
    },
  );
}
