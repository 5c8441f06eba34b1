import { type CustomVariableValue, customVariableValues } from '../engine/reports/custom-variables.js';
import type { Clock } from './clock.js';
import { InvalidInputError } from './errors.js';
import type { MetricsService } from './metrics-service.js';
import { createTtlCache } from './ttl-cache.js';

/**
 * Answers of /reports/custom-variables may be up to 5 minutes old (docs/api.md, "Scheduled churn, CMRR
 * and custom variables").
 */
export const CUSTOM_VARIABLES_TTL_MS = 5 * 60 * 1000;
const MAX_CACHED = 10_000;

export interface CustomVariablesParams {
  key?: string | undefined;
  search?: string | undefined;
  limit: number;
}

/** The values of one custom variable with their customer counts, cached per account and query. */
export function createCustomVariablesService(metrics: MetricsService, clock: Clock) {
  const cache = createTtlCache<CustomVariableValue[]>(clock, CUSTOM_VARIABLES_TTL_MS, MAX_CACHED);
  return {
    async values(
      accountId: string,
      params: CustomVariablesParams,
    ): Promise<{ values: CustomVariableValue[] }> {
      const key = params.key;
      if (key === undefined || key.trim() === '')
        throw new InvalidInputError('Missing required parameter: key');
      const search = params.search === undefined || params.search === '' ? null : params.search;
      const cacheKey = JSON.stringify([accountId, key, search, params.limit]);
      const values = await cache.getOrCompute(cacheKey, async () =>
        customVariableValues((await metrics.snapshotToRead(accountId)).customers, {
          key,
          search,
          limit: params.limit,
        }),
      );
      return { values };
    },
  };
}

export type CustomVariablesService = ReturnType<typeof createCustomVariablesService>;
