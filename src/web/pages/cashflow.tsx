import { api } from '../api.js';
import { type ReportParams, ReportPage } from '../components/report-page.js';
import { type Column, ReportPanel, ReportTable } from '../components/report-table.js';
import { SeriesChart } from '../components/series-chart.js';
import { count, money, percent } from '../format.js';
import type {
  FailedPaymentsRow,
  FailureRateRow,
  OutstandingReport,
  RefundsRow,
  Series,
  TransactionsRow,
} from '../reports.js';
import type { Route } from '../route.js';

/** The ages `/reports/cashflow-outstanding-unpaid` sums, at least this many days past due. */
const AGES = [
  ['current', 'Overdue'],
  ['30', '30 days or more'],
  ['60', '60 days or more'],
  ['180', '180 days or more'],
  ['365', '365 days or more'],
] as const;

interface Outstanding {
  age: string;
  amount: number;
  invoices: number;
}

type Cell = string | number | null;

function columns<Row extends { date: string }>(
  fields: [keyof Row & string, string, 'money' | 'count' | 'percent'][],
  currency: string,
): Column<Row>[] {
  const formats = {
    money: (value: Cell) => money(value as number | null, currency),
    count: (value: Cell) => count(value as number | null),
    percent: (value: Cell) => percent(value as number | null),
  };
  return [
    { key: 'date', label: 'Period', value: (row) => row.date },
    ...fields.map(([field, label, kind]) => ({
      key: field,
      label,
      value: (row: Row) => row[field] as Cell,
      format: formats[kind],
      numeric: true,
    })),
  ];
}

function load(params: ReportParams) {
  return Promise.all([
    api.get<Series<TransactionsRow>>('/reports/transactions', params),
    api.get<Series<FailedPaymentsRow>>('/reports/cashflow-failed-payments', params),
    api.get<Series<RefundsRow>>('/reports/cashflow-refunds', params),
    api.get<Series<FailureRateRow>>('/reports/cashflow-failure-rate', params),
    // Outstanding is as of today: it takes no range.
    api.get<OutstandingReport>('/reports/cashflow-outstanding-unpaid', { baseCurrency: params.baseCurrency }),
  ]);
}

/** Money collected and refunded, failed payments and what became of them, and unpaid invoices. */
export function Cashflow({ route }: { route: Route }) {
  return (
    <ReportPage title="Cashflow" route={route} what="cashflow figures" load={load}>
      {([transactions, failed, refunds, failureRate, outstanding]) => {
        const currency = transactions.currency;
        const amount = (value: number) => money(value, currency);
        const dates = transactions.result.map((row) => row.date);
        const net = columns<TransactionsRow>(
          [
            ['payments', 'Payments', 'money'],
            ['refund', 'Refunds', 'money'],
            ['net_amount', 'Net cash', 'money'],
            ['payment_count', 'Payments made', 'count'],
            ['refund_count', 'Refunds made', 'count'],
          ],
          currency,
        );
        const failedColumns = columns<FailedPaymentsRow>(
          [
            ['failed_amount', 'Failed', 'money'],
            ['recovered', 'Recovered', 'money'],
            ['still_unpaid', 'Still unpaid', 'money'],
            ['churned', 'Churned', 'money'],
            ['failed_invoices', 'Failed invoices', 'count'],
          ],
          currency,
        );
        const refundColumns = columns<RefundsRow>(
          [
            ['refund_amount', 'Refunded', 'money'],
            ['refund_count', 'Refunds', 'count'],
            ['customers_refunded', 'Customers refunded', 'count'],
          ],
          currency,
        );
        const rateColumns = columns<FailureRateRow>(
          [
            ['attempted_invoices', 'Invoices attempted', 'count'],
            ['failed_invoices', 'Invoices failed', 'count'],
            ['failure_rate', 'Failure rate', 'percent'],
          ],
          currency,
        );
        const ages: Outstanding[] = AGES.map(([age, label]) => ({
          age: label,
          amount: outstanding.summary[`outstanding_${age}`] ?? 0,
          invoices: outstanding.summary[`invoices_${age}`] ?? 0,
        }));
        const ageColumns: Column<Outstanding>[] = [
          { key: 'age', label: 'Past due', value: (row) => row.age },
          {
            key: 'invoices',
            label: 'Invoices',
            value: (row) => row.invoices,
            format: (v) => count(v as number),
            numeric: true,
          },
          {
            key: 'amount',
            label: 'Owed',
            value: (row) => row.amount,
            format: (v) => money(v as number, currency),
            numeric: true,
          },
        ];
        const noPayments = transactions.result.every(
          (row) => row.payment_count === 0 && row.refund_count === 0,
        );
        return (
          <>
            <ReportPanel
              title={`Net cash (${currency.toUpperCase()})`}
              filename="net-cash.csv"
              columns={net}
              rows={transactions.result}
              empty={noPayments && 'No payment or refund in this period.'}
            >
              <SeriesChart
                dates={dates}
                series={[
                  {
                    name: 'Payments',
                    type: 'bar',
                    colour: '#2f9e44',
                    values: transactions.result.map((row) => row.payments),
                  },
                  {
                    name: 'Refunds',
                    type: 'bar',
                    colour: '#f59f00',
                    values: transactions.result.map((row) => -row.refund),
                  },
                  {
                    name: 'Net cash',
                    type: 'line',
                    colour: '#3b5bdb',
                    values: transactions.result.map((row) => row.net_amount),
                  },
                ]}
                format={amount}
                label="Payments, refunds and net cash by period"
              />
              <ReportTable columns={net} rows={transactions.result} />
            </ReportPanel>
            <ReportPanel
              title="Failed payments"
              filename="failed-payments.csv"
              columns={failedColumns}
              rows={failed.result}
              empty={
                failed.result.every((row) => row.failed_invoices === 0) && 'No payment failed in this period.'
              }
            >
              <SeriesChart
                dates={failed.result.map((row) => row.date)}
                series={[
                  {
                    name: 'Recovered',
                    type: 'bar',
                    colour: '#2f9e44',
                    values: failed.result.map((row) => row.recovered),
                  },
                  {
                    name: 'Still unpaid',
                    type: 'bar',
                    colour: '#f59f00',
                    values: failed.result.map((row) => row.still_unpaid),
                  },
                  {
                    name: 'Churned',
                    type: 'bar',
                    colour: '#e03131',
                    values: failed.result.map((row) => row.churned),
                  },
                ]}
                format={amount}
                label="Failed payments by what became of them, by period"
              />
            </ReportPanel>
            <ReportPanel
              title="Payment failure rate"
              filename="failure-rate.csv"
              columns={rateColumns}
              rows={failureRate.result}
              empty={
                failureRate.result.every((row) => row.attempted_invoices === 0) &&
                'No invoice was charged in this period.'
              }
            >
              <SeriesChart
                dates={failureRate.result.map((row) => row.date)}
                series={[
                  {
                    name: 'Failure rate',
                    type: 'line',
                    colour: '#e03131',
                    values: failureRate.result.map((row) => row.failure_rate),
                  },
                ]}
                format={(value) => `${value}%`}
                label="Share of charged invoices whose payment failed, by period"
              />
            </ReportPanel>
            <ReportPanel
              title="Refunds"
              filename="refunds.csv"
              columns={refundColumns}
              rows={refunds.result}
              empty={refunds.result.every((row) => row.refund_count === 0) && 'No refund in this period.'}
            >
              <SeriesChart
                dates={refunds.result.map((row) => row.date)}
                series={[
                  {
                    name: 'Refunded',
                    type: 'bar',
                    colour: '#f59f00',
                    values: refunds.result.map((row) => row.refund_amount),
                  },
                ]}
                format={amount}
                label="Refunds by period"
              />
            </ReportPanel>
            <ReportPanel
              title="Outstanding invoices, today"
              filename="outstanding.csv"
              columns={ageColumns}
              rows={ages}
              empty={ages[0]!.invoices === 0 && 'No invoice is past its due date.'}
            >
              <ReportTable columns={ageColumns} rows={ages} />
            </ReportPanel>
          </>
        );
      }}
    </ReportPage>
  );
}
