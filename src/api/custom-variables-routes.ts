import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { MAX_CUSTOM_VARIABLE_VALUES } from '../services/limits.js';
import { authOf } from './auth.js';
import { intParam, reportErrors } from './report-schemas.js';

/** SPEC 4.6 and 8: the values of one custom variable, for filter pickers. */
export function customVariablesRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reports/custom-variables',
      {
        schema: {
          tags: ['Reports'],
          summary: 'The values of one custom variable with how many customers hold each, cached 5 minutes',
          querystring: z.object({
            // Checked by the service, so that a missing key gets the message SPEC 7 gives.
            key: z.string().optional().describe('Required: the custom variable, e.g. industry'),
            search: z.string().optional().describe('Keep values holding this text, any case'),
            limit: intParam(1, MAX_CUSTOM_VARIABLE_VALUES, 20).describe(
              `Most values returned; default 20, at most ${MAX_CUSTOM_VARIABLE_VALUES}`,
            ),
          }),
          response: {
            200: z.object({
              values: z.array(z.object({ value: z.string(), count: z.number().int() })),
            }),
            ...reportErrors,
          },
        },
      },
      (request) => services.customVariables.values(authOf(request).accountId, request.query),
    );
  };
}
