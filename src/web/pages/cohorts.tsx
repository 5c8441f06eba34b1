import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'preact/hooks';
import { api } from '../api.js';
import { EChart } from '../components/echart.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, figure, ReportPanel, ReportTable } from '../components/report-table.js';
import { percent } from '../format.js';
import type { Cohort, CohortReport } from '../reports.js';
import { navigate, type Route } from '../route.js';

const METRICS = {
  mrr: { label: 'MRR retention', field: 'mrr_retention' },
  customers: { label: 'Customer retention', field: 'customer_retention' },
} as const;
type Metric = keyof typeof METRICS;

const labelOf = (cohort: Cohort) => (cohort.cohort_group === 'average' ? 'Average' : (cohort.label ?? ''));

/** A period in which nobody started paying: its retention is not 0, there is nothing to retain. */
const isEmpty = (cohort: Cohort) => cohort.cohort_group !== 'average' && !cohort.initial_customers;

function columns(cohorts: Cohort[], metric: Metric, currency: string): Column<Cohort>[] {
  const field = METRICS[metric].field;
  const longest = Math.max(0, ...cohorts.map((cohort) => cohort.periods.length));
  return [
    { key: 'cohort', label: 'Cohort', value: labelOf },
    figure('initial_customers', 'Customers', 'count', currency, (cohort) => cohort.initial_customers ?? null),
    figure('initial_mrr', 'Initial MRR', 'money', currency, (cohort) => cohort.initial_mrr ?? null),
    ...Array.from({ length: longest }, (_, period) => ({
      key: `period_${period}`,
      label: String(period),
      value: (cohort: Cohort) => (isEmpty(cohort) ? null : (cohort.periods[period]?.[field] ?? null)),
      format: (value: string | number | null) => (value === null ? '' : percent(value as number)),
      numeric: true,
    })),
  ];
}

/** Cohorts top to bottom, period index left to right, each cell its retention in percent. */
function heatMap(cohorts: Cohort[], metric: Metric): EChartsCoreOption {
  const field = METRICS[metric].field;
  const longest = Math.max(0, ...cohorts.map((cohort) => cohort.periods.length));
  // An empty cohort has no cells: its row stays blank rather than reading 0 %.
  const cells = cohorts.flatMap((cohort, row) =>
    isEmpty(cohort) ? [] : cohort.periods.map((period, index) => [index, row, period[field]]),
  );
  // Above 100 (expansion) keeps the darkest colour; the scale is retention, 0 to 100.
  return {
    animationDuration: 300,
    tooltip: {
      formatter: (item: { value: [number, number, number] }) =>
        `${labelOf(cohorts[item.value[1]]!)}, period ${item.value[0]}: ${percent(item.value[2])}`,
    },
    grid: { left: 72, right: 16, top: 8, bottom: 64 },
    xAxis: {
      type: 'category',
      data: Array.from({ length: longest }, (_, i) => String(i)),
      splitArea: { show: true },
    },
    yAxis: { type: 'category', data: cohorts.map(labelOf), inverse: true, splitArea: { show: true } },
    visualMap: {
      min: 0,
      max: 100,
      calculable: false,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      inRange: { color: ['#fff5f5', '#91a7ff', '#3b5bdb'] },
    },
    series: [
      {
        type: 'heatmap',
        data: cells,
        label: { show: longest <= 13, formatter: (item: { value: number[] }) => Math.round(item.value[2]!) },
      },
    ],
  };
}

function Figures({ report, metric }: { report: CohortReport; metric: Metric }) {
  const cohorts = report.result.list;
  const option = useMemo(() => heatMap(cohorts, metric), [cohorts, metric]);
  const table = columns(cohorts, metric, report.currency);
  const empty = cohorts.every((cohort) => cohort.cohort_group === 'average' || isEmpty(cohort));
  return (
    <ReportPanel
      title={`${METRICS[metric].label} by cohort (${report.currency.toUpperCase()})`}
      filename={`cohorts-${metric}.csv`}
      columns={table}
      rows={cohorts}
      empty={empty && 'No customer started paying in this period, so there is no cohort to follow yet.'}
    >
      <EChart option={option} label={`${METRICS[metric].label} of each cohort by period`} />
      <ReportTable columns={table} rows={cohorts} />
      {cohorts.some(isEmpty) && (
        <p class="hint">A blank row is a period in which no customer started paying: it has no cohort.</p>
      )}
    </ReportPanel>
  );
}

/** Retention of each cohort of new customers, period after period, as a heat map and a table. */
export function Cohorts({ route }: { route: Route }) {
  const metric: Metric = route.params.get('metric') === 'customers' ? 'customers' : 'mrr';
  const show = (next: string) =>
    navigate(route.path, { ...Object.fromEntries(route.params), metric: next === 'mrr' ? undefined : next });
  return (
    <ReportPage
      title="Cohorts"
      route={route}
      what="cohorts"
      keep={{ metric: route.params.get('metric') ?? undefined }}
      load={(params) => api.get<CohortReport>('/reports/cohort', params)}
      controls={
        <label class="filters">
          Retention of
          <select name="metric" value={metric} onChange={(event) => show(event.currentTarget.value)}>
            {Object.entries(METRICS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      }
    >
      {(report) => <Figures report={report} metric={metric} />}
    </ReportPage>
  );
}
