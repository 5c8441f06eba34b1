import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SegmentRow, SegmentValues } from '../store/segments-repo.js';
import type { Store } from '../store/open-store.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import { isUuid } from './ids.js';
import type { QueryContexts } from './report-context.js';
import { isFilterParameter, parseFilters } from './report-query.js';
import { shortText } from './record-fields.js';

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const segmentInputSchema = z.strictObject({
  name: shortText.trim().min(1, 'must not be empty'),
  description: shortText.nullable().default(null),
  filters: z
    .record(z.string(), filterValue)
    .describe('Report filter parameters, e.g. {"region": "eu", "plan": "<plan group id>"}'),
  mode: z.enum(['filter', 'breakdown']).default('filter'),
});

export const segmentPatchSchema = z.strictObject({
  name: segmentInputSchema.shape.name.optional(),
  description: shortText.nullable().optional(),
  filters: segmentInputSchema.shape.filters.optional(),
  mode: z.enum(['filter', 'breakdown']).optional(),
});

type FilterInput = z.infer<typeof segmentInputSchema>['filters'];

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Segment ${id} not found`);
}

/**
 * A segment's filters as the query parameters they stand for: lists joined the way each
 * parameter separates values (`~~` for custom variables, spaces elsewhere), nulls dropped.
 */
function asParameters(filters: FilterInput): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (!isFilterParameter(name)) {
      throw new InvalidInputError(`Invalid filters.${name}: not a report filter parameter`);
    }
    if (value === null) continue;
    if (name === 'customer' && Array.isArray(value)) {
      throw new InvalidInputError('Invalid filters.customer: one customer id, not a list');
    }
    parameters[name] = Array.isArray(value)
      ? value.join(name.startsWith('custom_') ? '~~' : ' ')
      : String(value);
  }
  return parameters;
}

/** Saved filter combinations (the reference's /data/segments), expanded by reports' `segment`. */
export function createSegmentsService(store: Store, queryContext: QueryContexts) {
  /** Checks the filters the way a report would, so a saved segment never fails later for its own values. */
  async function checked(accountId: string, filters: FilterInput): Promise<Record<string, string>> {
    const parameters = asParameters(filters);
    try {
      await parseFilters(parameters, await queryContext(accountId));
    } catch (error) {
      if (error instanceof InvalidInputError) {
        throw new InvalidInputError(`Invalid filters: ${error.message}`);
      }
      throw error;
    }
    return parameters;
  }

  async function get(accountId: string, id: string): Promise<SegmentRow> {
    const segment = isUuid(id) ? await store.segments.get(accountId, id) : undefined;
    if (!segment) throw notFound(id);
    return segment;
  }

  return {
    get,

    list(accountId: string, page: { limit: number; offset: number }): Promise<SegmentRow[]> {
      return store.segments.list(accountId, page);
    },

    async create(accountId: string, input: z.infer<typeof segmentInputSchema>): Promise<string> {
      const id = randomUUID();
      await store.segments.insert(accountId, id, {
        ...input,
        filters: await checked(accountId, input.filters),
      });
      return id;
    },

    async update(accountId: string, id: string, patch: z.infer<typeof segmentPatchSchema>): Promise<void> {
      const current = await get(accountId, id);
      const values: SegmentValues = {
        name: patch.name ?? current.name,
        description: patch.description === undefined ? current.description : patch.description,
        filters: patch.filters === undefined ? current.filters : await checked(accountId, patch.filters),
        mode: patch.mode ?? current.mode,
      };
      if (!(await store.segments.update(accountId, id, values))) throw notFound(id);
    },

    async delete(accountId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await store.segments.delete(accountId, id))) throw notFound(id);
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
