import {
  INVOICE_STATUSES,
  LINE_TYPES,
  TRANSACTION_RESULTS,
  TRANSACTION_TYPES,
} from '../engine/vocabulary.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { invoiceInputSchema } from '../services/invoices-service.js';
import { requireAdminToWrite } from './auth.js';
import { invoicesFromCsv } from './csv-items.js';
import { registerRecordRoutes } from './record-routes.js';
import { isoInstant } from './schemas.js';

const day = z.string().describe('YYYY-MM-DD');

const invoiceSchema = z.object({
  id: z.string(),
  data_source: z.uuid(),
  customer_id: z.string(),
  date: day,
  due_date: day.nullable(),
  currency: z.string().describe('ISO 4217, lower case'),
  status: z.enum(INVOICE_STATUSES),
  number: z.string().nullable(),
  description: z.string().nullable(),
  payment_date: day.nullable(),
  amount: z
    .number()
    .int()
    .describe('Total in cents: line amounts plus tax, or the total given without lines'),
  lines: z.array(
    z.object({
      id: z.string(),
      type: z.enum(LINE_TYPES),
      subscription_id: z.string().nullable(),
      plan_id: z.string().nullable(),
      description: z.string().nullable(),
      amount: z.number().int(),
      quantity: z.number().int(),
      period_start: day.nullable(),
      period_end: day.nullable(),
      discount: z.number().int(),
      tax: z.number().int(),
      prorated: z.boolean(),
    }),
  ),
  transactions: z.array(
    z.object({
      id: z.string(),
      date: isoInstant,
      type: z.enum(TRANSACTION_TYPES),
      result: z.enum(TRANSACTION_RESULTS),
      amount: z.number().int(),
      payment_method: z.string().nullable(),
    }),
  ),
});

export function invoiceRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    registerRecordRoutes(app, {
      path: '/data/invoices',
      plural: 'invoices',
      tags: ['Data: invoices'],
      service: services.invoices,
      input: invoiceInputSchema,
      output: invoiceSchema,
      fromCsv: invoicesFromCsv,
    });
  };
}
