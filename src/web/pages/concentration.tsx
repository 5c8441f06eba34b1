import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, figure, ReportPanel, ReportTable } from '../components/report-table.js';
import type { ConcentrationReport } from '../reports.js';
import { withoutRange } from '../dashboard-query.js';
import type { Route } from '../route.js';

type Customer = ConcentrationReport['result']['list'][number];
type Share = {
  group: string;
  key: keyof ConcentrationReport['result']['concentration'];
  share: number | null;
};

const GROUPS = [
  ['top_1_pct', 'Largest customer'],
  ['top_5_pct', 'Largest 5 customers'],
  ['top_10_pct', 'Largest 10 customers'],
  ['top_20_pct', 'Largest 20 customers'],
  ['top_10_percent_pct', 'Largest tenth of customers'],
] as const;

const SHARES: Column<Share>[] = [
  { key: 'group', label: 'Customers', value: (row) => row.group },
  figure('share_pct', 'Share of MRR', 'percent', '', (row) => row.share),
];

function customerColumns(currency: string): Column<Customer>[] {
  return [
    { key: 'id', label: 'Customer', value: (row) => row.id },
    { key: 'name', label: 'Name', value: (row) => row.name },
    { key: 'country', label: 'Country', value: (row) => row.country },
    figure('mrr', 'MRR', 'money', currency, (row) => row.mrr),
    figure('share_pct', 'Share', 'percent', currency, (row) => row.share_pct),
  ];
}

/** How much of today's MRR the largest customers bring, and every paying customer by MRR. */
export function Concentration({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Customer concentration"
      route={route}
      what="concentration"
      asOfToday
      load={(params) => api.get<ConcentrationReport>('/reports/customer-concentration', withoutRange(params))}
    >
      {(report) => {
        const { concentration, list } = report.result;
        const shares: Share[] = GROUPS.map(([key, group]) => ({ key, group, share: concentration[key] }));
        const customers = customerColumns(report.currency);
        const empty = list.length === 0 && 'Nobody pays today, so there is no MRR to share.';
        return (
          <>
            <ReportPanel
              title="Share of today's MRR"
              filename="concentration.csv"
              columns={SHARES}
              rows={shares}
              empty={empty}
            >
              <ReportTable columns={SHARES} rows={shares} />
            </ReportPanel>
            <ReportPanel
              title={`Paying customers by MRR (${report.currency.toUpperCase()})`}
              filename="concentration-customers.csv"
              columns={customers}
              rows={list}
              empty={empty}
            >
              <ReportTable columns={customers} rows={list} />
            </ReportPanel>
          </>
        );
      }}
    </ReportPage>
  );
}
