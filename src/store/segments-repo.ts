import type { Queryable } from './db.js';

export interface SegmentRow {
  id: string;
  name: string;
  description: string | null;
  filters: Record<string, string>;
  mode: 'filter' | 'breakdown';
}

export type SegmentValues = Omit<SegmentRow, 'id'>;

const SELECT = 'select segment_id as id, name, description, filters, mode from segments';

export function segmentsRepo(db: Queryable) {
  return {
    list(accountId: string, page: { limit: number; offset: number }): Promise<SegmentRow[]> {
      return db.query<SegmentRow>(
        `${SELECT} where account_id = $1 order by created_at, segment_id limit $2 offset $3`,
        [accountId, page.limit, page.offset],
      );
    },

    async get(accountId: string, id: string): Promise<SegmentRow | undefined> {
      const [row] = await db.query<SegmentRow>(`${SELECT} where account_id = $1 and segment_id = $2`, [
        accountId,
        id,
      ]);
      return row;
    },

    async insert(accountId: string, id: string, values: SegmentValues): Promise<void> {
      await db.query(
        `insert into segments (account_id, segment_id, name, description, filters, mode)
         values ($1, $2, $3, $4, $5::jsonb, $6)`,
        [accountId, id, values.name, values.description, JSON.stringify(values.filters), values.mode],
      );
    },

    /** Replaces the segment's values; false when it does not exist. */
    async update(accountId: string, id: string, values: SegmentValues): Promise<boolean> {
      const rows = await db.query(
        `update segments set name = $3, description = $4, filters = $5::jsonb, mode = $6
         where account_id = $1 and segment_id = $2 returning 1`,
        [accountId, id, values.name, values.description, JSON.stringify(values.filters), values.mode],
      );
      return rows.length > 0;
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'delete from segments where account_id = $1 and segment_id = $2 returning 1',
        [accountId, id],
      );
      return rows.length > 0;
    },
  };
}
