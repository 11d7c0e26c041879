import type { FastifyInstance } from 'fastify';
import {
  createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate,
} from '../domain/merchant/templates.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';
import { TemplateFields, TemplateSchema, TemplateUpdateFields, TemplatesQuery, presentTemplate } from '../schemas/receipts.js';
import { List, Success } from '../schemas/common.js';
import { E } from '../errors.js';

type WithId = { Params: { id: string } };

/** Receipt templates (spec 4.4), plus a list, newest first. */
export default async function templateRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/receipts/templates', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List receipt templates, newest first', querystring: TemplatesQuery, response: { 200: List(TemplateSchema) } },
  }, async (req) => {
    const page = TemplatesQuery.from(req);
    const { list, total } = await listTemplates(db, req.identity, page);
    return listEnvelope(list.map(presentTemplate), page, total);
  });

  // A retry whose first attempt created the template but lost its answer (a crash) gets that template.
  const replay: IdempotentReplay = async (req, id) => presentTemplate(await getTemplate(db, req.identity, id));
  app.post('/receipts/templates', { config: { idempotentReplay: replay, errors: [E.RECEIPT_FIELD_MISSING] }, schema: { summary: 'Create a receipt template', body: TemplateFields, response: { 200: TemplateSchema } } }, async (req) =>
    presentTemplate(await req.tx((q) => createTemplate(q, req.identity, TemplateFields.from(req), req.now), { resource: (t) => t.id })),
  );

  app.get<WithId>('/receipts/templates/:id', { config: { errors: [E.TEMPLATE_NOT_FOUND] }, schema: { summary: 'Retrieve a receipt template', response: { 200: TemplateSchema } } }, async (req) =>
    presentTemplate(await getTemplate(db, req.identity, req.params.id)),
  );

  // The template is found first (10300), then its fields are read: the route reads its table itself.
  app.post<WithId>('/receipts/templates/:id', {
    config: { errors: [E.TEMPLATE_NOT_FOUND, E.RECEIPT_FIELD_MISSING], readsInput: 'handler' },
    schema: { summary: 'Update a receipt template', body: TemplateUpdateFields, response: { 200: TemplateSchema } },
  }, async (req) =>
    presentTemplate(await req.tx(async (q) => {
      const current = await getTemplate(q, req.identity, req.params.id);
      return updateTemplate(q, req.identity, current, TemplateUpdateFields.read(req.body), req.now);
    })),
  );

  app.delete<WithId>(
    '/receipts/templates/:id',
    { config: { errors: [E.TEMPLATE_NOT_FOUND] }, schema: { summary: 'Delete a receipt template', response: { 200: Success } } },
    async (req) => {
      await req.tx((q) => deleteTemplate(q, req.identity, req.params.id));
      return { success: true };
    },
  );
}
