import { z } from 'zod';
import { MAX_CUSTOM_VARIABLE_VALUES } from '../../services/limits.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { intParam } from '../report-schemas.js';

/** The values of one custom variable, for filter pickers. */
export const customVariableReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/custom-variables',
    summary: 'The values of one custom variable with how many customers hold each, cached 5 minutes',
    query: z.object({
      // Checked by the service, so that a missing key gets the message docs/api.md gives.
      key: z.string().optional().describe('Required: the custom variable, e.g. industry'),
      search: z.string().optional().describe('Keep values holding this text, any case'),
      limit: intParam(1, MAX_CUSTOM_VARIABLE_VALUES, 20).describe(
        `Most values returned; default 20, at most ${MAX_CUSTOM_VARIABLE_VALUES}`,
      ),
    }),
    result: z.object({
      values: z.array(z.object({ value: z.string(), count: z.number().int() })),
    }),
    run: (services, accountId, query) => services.customVariables.values(accountId, query),
  }),
];
