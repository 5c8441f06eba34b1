import { api } from '../api.js';
import { type Field, PeriodPanel } from '../components/period-panel.js';
import { type ReportParams, ReportPage } from '../components/report-page.js';
import { type Column, figure, ReportPanel, ReportTable } from '../components/report-table.js';
import type {
  FailedPaymentsRow,
  FailureRateRow,
  OutstandingReport,
  RefundsRow,
  Series,
  TransactionsRow,
} from '../reports.js';
import { withoutRange } from '../dashboard-query.js';
import type { Route } from '../route.js';

const NET_CASH: Field<TransactionsRow>[] = [
  { key: 'payments', label: 'Payments', kind: 'money', chart: { type: 'bar', colour: '#2f9e44' } },
  { key: 'refund', label: 'Refunds', kind: 'money', chart: { type: 'bar', colour: '#f59f00' } },
  { key: 'net_amount', label: 'Net cash', kind: 'money', chart: { type: 'line', colour: '#3b5bdb' } },
  { key: 'payment_count', label: 'Payments made', kind: 'count' },
  { key: 'refund_count', label: 'Refunds made', kind: 'count' },
];

const FAILED: Field<FailedPaymentsRow>[] = [
  { key: 'failed_amount', label: 'Failed', kind: 'money' },
  { key: 'recovered', label: 'Recovered', kind: 'money', chart: { type: 'bar', colour: '#2f9e44' } },
  { key: 'still_unpaid', label: 'Still unpaid', kind: 'money', chart: { type: 'bar', colour: '#f59f00' } },
  { key: 'churned', label: 'Churned', kind: 'money', chart: { type: 'bar', colour: '#e03131' } },
  { key: 'failed_invoices', label: 'Failed invoices', kind: 'count' },
];

const FAILURE_RATE: Field<FailureRateRow>[] = [
  {
    key: 'failure_rate',
    label: 'Failure rate',
    kind: 'percent',
    chart: { type: 'line', colour: '#e03131' },
    // 0 over nothing in the API: a period without a charged invoice shows "–".
    known: (row) => row.attempted_invoices > 0,
  },
  { key: 'attempted_invoices', label: 'Invoices charged', kind: 'count' },
  { key: 'failed_invoices', label: 'Invoices failed', kind: 'count' },
];

const REFUNDS: Field<RefundsRow>[] = [
  { key: 'refund_amount', label: 'Refunded', kind: 'money', chart: { type: 'bar', colour: '#f59f00' } },
  { key: 'refund_count', label: 'Refunds', kind: 'count' },
  { key: 'customers_refunded', label: 'Customers refunded', kind: 'count' },
];

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

function OutstandingPanel({ report }: { report: OutstandingReport }) {
  const rows: Outstanding[] = AGES.map(([age, label]) => ({
    age: label,
    amount: report.summary[`outstanding_${age}`] ?? 0,
    invoices: report.summary[`invoices_${age}`] ?? 0,
  }));
  const columns: Column<Outstanding>[] = [
    { key: 'age', label: 'Past due', value: (row) => row.age },
    figure('invoices', 'Invoices', 'count', report.currency, (row) => row.invoices),
    figure('amount', 'Owed', 'money', report.currency, (row) => row.amount),
  ];
  return (
    <ReportPanel
      title="Outstanding invoices, today"
      filename="outstanding.csv"
      columns={columns}
      rows={rows}
      empty={rows[0]!.invoices === 0 && 'No invoice is past its due date.'}
    >
      <ReportTable columns={columns} rows={rows} />
    </ReportPanel>
  );
}

function load(params: ReportParams) {
  return Promise.all([
    api.get<Series<TransactionsRow>>('/reports/transactions', params),
    api.get<Series<FailedPaymentsRow>>('/reports/cashflow-failed-payments', params),
    api.get<Series<FailureRateRow>>('/reports/cashflow-failure-rate', params),
    api.get<Series<RefundsRow>>('/reports/cashflow-refunds', params),
    // Outstanding is as of today: it takes no range.
    api.get<OutstandingReport>('/reports/cashflow-outstanding-unpaid', withoutRange(params)),
  ]);
}

/** Money collected and refunded, failed payments and what became of them, and unpaid invoices. */
export function Cashflow({ route }: { route: Route }) {
  return (
    <ReportPage title="Cashflow" route={route} what="cashflow figures" load={load}>
      {([transactions, failed, failureRate, refunds, outstanding]) => (
        <>
          <PeriodPanel
            title={`Net cash (${transactions.currency.toUpperCase()})`}
            filename="net-cash.csv"
            currency={transactions.currency}
            rows={transactions.result}
            fields={NET_CASH}
            empty={
              transactions.result.every((row) => row.payment_count === 0 && row.refund_count === 0) &&
              'No payment or refund in this period.'
            }
            table
          />
          <PeriodPanel
            title="Failed payments"
            filename="failed-payments.csv"
            currency={failed.currency}
            rows={failed.result}
            fields={FAILED}
            empty={
              failed.result.every((row) => row.failed_invoices === 0) && 'No payment failed in this period.'
            }
          />
          <PeriodPanel
            title="Payment failure rate"
            filename="failure-rate.csv"
            currency={failureRate.currency}
            rows={failureRate.result}
            fields={FAILURE_RATE}
            empty={
              failureRate.result.every((row) => row.attempted_invoices === 0) &&
              'No invoice was charged in this period.'
            }
          />
          <PeriodPanel
            title="Refunds"
            filename="refunds.csv"
            currency={refunds.currency}
            rows={refunds.result}
            fields={REFUNDS}
            empty={refunds.result.every((row) => row.refund_count === 0) && 'No refund in this period.'}
          />
          <OutstandingPanel report={outstanding} />
        </>
      )}
    </ReportPage>
  );
}
