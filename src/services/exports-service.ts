import { type CsvValue, csvLine } from '../engine/csv-text.js';
import { dayString } from '../engine/days.js';
import { nextPeriodStart, periodsBetween, periodStart } from '../engine/periods.js';
import type { CustomerSort } from '../engine/reports/customer-item.js';
import { customerRows } from '../engine/reports/customers.js';
import { listedPositions } from '../engine/reports/movement-list.js';
import { mrrGrowthByMonth } from '../engine/reports/mrr-growth.js';
import { movementItem } from './movement-items.js';
import type { ReportInputs } from './report-inputs.js';
import { parseBoolean, parseKinds, type RawReportParams } from './report-query.js';

/** Rows turned into text a batch at a time, so an export holds one batch of text at once. */
const BATCH_ROWS = 2000;

/** A CSV file built while it is sent: its name and its text in batches of records. */
export interface CsvExport {
  filename: string;
  chunks: Iterable<string>;
}

function* csvChunks(
  header: readonly string[],
  count: number,
  row: (n: number) => CsvValue[],
): Generator<string> {
  yield csvLine(header);
  for (let start = 0; start < count; start += BATCH_ROWS) {
    let text = '';
    for (let n = start; n < Math.min(count, start + BATCH_ROWS); n++) text += csvLine(row(n));
    yield text;
  }
}

export interface CustomerExportOptions {
  sort: CustomerSort;
  order: 'asc' | 'desc';
}

/**
 * The CSV exports (docs/api.md, "Exports"): the same parameters and figures as the reports
 * they mirror, every row of the range rather than a page. Each export parses its parameters and
 * loads its data before it answers, so a bad parameter is a 400 before any byte of CSV.
 */
export function createExportsService(prepare: ReportInputs) {
  return {
    /** Every customer the filters keep; with `date`, those who became leads within it. */
    async customers(
      accountId: string,
      raw: RawReportParams,
      options: CustomerExportOptions,
    ): Promise<CsvExport> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const rows = customerRows(
        snapshot,
        {
          today: query.today,
          baseCurrency: query.baseCurrency,
          customers,
          status: 'all',
          search: null,
          selected: raw.date === undefined ? null : { type: 'lead', from: query.from, to: query.to },
          ...options,
        },
        table,
      );
      const header = ['id', 'name', 'email', 'country', 'created_date', 'trial_started', 'paid_started'];
      return {
        filename: 'customers.csv',
        chunks: csvChunks(
          [...header, 'cancel_date', 'status', 'currency', 'mrr', 'base_currency'],
          rows.count,
          (n) => {
            const item = rows.at(n);
            return [
              ...header.map((field) => item[field as keyof typeof item]),
              item.cancel_date,
              item.status,
              item.currency,
              item.mrr,
              query.baseCurrency,
            ];
          },
        ),
      };
    },

    /** Every MRR movement of the range, in day order. */
    async movements(
      accountId: string,
      raw: RawReportParams & { type?: string; committed?: string },
    ): Promise<CsvExport> {
      const kinds = parseKinds('type', raw.type);
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const listed = listedPositions(
        snapshot,
        { ...query, fixedRateDay: query.fixFx ? query.to : null, customers, kinds, committed },
        table,
      );
      return {
        filename: 'mrr-movements.csv',
        chunks: csvChunks(
          [
            'date',
            'customer_id',
            'customer_name',
            'customer_email',
            'type',
            'description',
            'currency',
            'mrr_change',
            'base_currency',
            'mrr_change_base_currency',
          ],
          listed.count,
          (n) => {
            const item = movementItem(snapshot, listed.at(n));
            return [
              item.date,
              item.customer_id,
              item.customer_name,
              item.customer_email,
              item.type,
              item.description,
              item.currency,
              item.mrr_change,
              query.baseCurrency,
              item.mrr_change_base_currency,
            ];
          },
        ),
      };
    },

    /**
     * Each month of the range: the month's movements added up day by day, as
     * /reports/mrr-growth draws one month. `category` (the hosted service's clients' name) or
     * `types` keeps some movement kinds.
     */
    async growth(
      accountId: string,
      raw: RawReportParams & { category?: string; types?: string },
    ): Promise<CsvExport> {
      const kinds =
        raw.category === undefined ? parseKinds('types', raw.types) : parseKinds('category', raw.category);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const months = periodsBetween(query.from, query.to, 'month').map((period) => period.start);
      const sums = mrrGrowthByMonth(
        snapshot,
        months,
        { today: query.today, baseCurrency: query.baseCurrency, customers, kinds },
        table,
      );
      // Long form, one row per month and day of it (0 the anchor), for pivot tables.
      const rows = months.flatMap((month, index) => {
        const first = periodStart(month, 'month');
        const days = nextPeriodStart(first, 'month') - first;
        return Array.from({ length: days + 1 }, (_, day) => [index, day] as const);
      });
      return {
        filename: 'mrr-growth.csv',
        chunks: csvChunks(['month', 'day', 'cumulative_mrr', 'base_currency'], rows.length, (n) => {
          const [index, day] = rows[n]!;
          return [dayString(months[index]!).slice(0, 7), day, sums[index]![day], query.baseCurrency];
        }),
      };
    },
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
