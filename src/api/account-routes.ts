import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { authOf, requireAdmin } from './auth.js';
import { accountProfileSchema, adminErrors, isoInstant, listOf, teamMemberSchema } from './schemas.js';

const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  access_level: z.enum(['admin', 'viewer']),
  created_at: isoInstant,
  last_used: isoInstant.nullable(),
});

const billingSchema = z.object({
  plan: z.literal('self-hosted'),
  status: z.literal('active'),
  price: z.number().int().describe('What this installation costs per month, in cents: nothing'),
  currency: z.string(),
  usage: z.object({
    data_sources: z.number().int(),
    api_keys: z.number().int(),
    team_members: z.number().int(),
  }),
});

export function accountRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdmin);
    const tags = ['Account'];

    app.get(
      '/account/api-keys',
      {
        schema: {
          tags,
          summary: 'API keys of the account (metadata only, never the key values)',
          response: { 200: listOf(apiKeySchema), ...adminErrors },
        },
      },
      async (request) => {
        const list = await services.apiKeys.list(authOf(request).accountId);
        return { result: { count: list.length, list } };
      },
    );

    app.get(
      '/account/team',
      {
        schema: {
          tags,
          summary: 'Team members of the account',
          response: { 200: listOf(teamMemberSchema), ...adminErrors },
        },
      },
      async (request) => {
        const list = await services.team.list(authOf(request).accountId);
        return { result: { count: list.length, list } };
      },
    );

    for (const [path, summary] of [
      ['/account/profile', 'The account itself'],
      ['/account', 'The same as /account/profile, at the path the hosted service serves it'],
    ] as const)
      app.get(
        path,
        { schema: { tags, summary, response: { 200: accountProfileSchema, ...adminErrors } } },
        (request) => services.accounts.profile(authOf(request).accountId),
      );

    app.get(
      '/account/billing',
      {
        schema: {
          tags,
          summary: 'Plan and usage of this installation',
          response: { 200: billingSchema, ...adminErrors },
        },
      },
      (request) => services.accounts.billing(authOf(request).accountId),
    );

    app.get(
      '/account/billing/invoices',
      {
        schema: {
          tags,
          summary: "Invoices for this installation's plan: none, a self-hosted installation is never billed",
          response: { 200: listOf(z.object({}).describe('Never present')), ...adminErrors },
        },
      },
      () => ({ result: { count: 0, list: [] } }),
    );

    app.get(
      '/account/billing/portal',
      {
        schema: {
          tags,
          summary: 'Where to manage payment for this installation: nowhere, it is never billed',
          response: {
            200: z.object({ url: z.null().describe('Never a portal address'), message: z.string() }),
            ...adminErrors,
          },
        },
      },
      () => ({
        url: null,
        message: 'This installation is self-hosted and never billed, so it has no billing portal',
      }),
    );

    app.get(
      '/account/billing/check-vat',
      {
        schema: {
          tags,
          summary: "Checks a VAT number for this installation's billing: never, it is never billed",
          querystring: z.object({ vat_number: z.string().max(64).optional() }),
          response: {
            200: z.object({
              vat_number: z.string().nullable().describe('The number asked about, as sent'),
              valid: z.null().describe('Never checked'),
              message: z.string(),
            }),
            ...adminErrors,
          },
        },
      },
      (request) => ({
        vat_number: request.query.vat_number ?? null,
        valid: null,
        message: 'This installation is self-hosted and never billed, so it checks no VAT numbers',
      }),
    );
  };
}
