import { type CustomerView, filteredCustomers } from '../engine/account-snapshot.js';
import { nextPeriodStart, periodStart } from '../engine/periods.js';
import { type CustomerListItem, type CustomerSort, customerState } from '../engine/reports/customer-item.js';
import { customersReport, type SelectedType } from '../engine/reports/customers.js';
import { roundCents } from '../engine/rounding.js';
import type { Store } from '../store/open-store.js';
import { planKey } from './customer-history.js';
import { ConflictError, NotFoundError } from './errors.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import type { ReportQueries } from './report-context.js';
import { parseReportDay, type RawReportParams } from './report-query.js';

export interface CustomerListParams {
  limit: number;
  offset: number;
  status: 'active' | 'cancelled' | 'all';
  q?: string | undefined;
  selectedDate?: string | undefined;
  selectedType: SelectedType;
  sort: CustomerSort;
  order: 'asc' | 'desc';
  /** The shared report filters and baseCurrency, as given. */
  filters: RawReportParams;
}

export interface CurrentSubscription {
  plan_id: string | null;
  name: string | null;
  billing_freq: string | null;
  billing_freq_count: number | null;
  currency: string;
  mrr: number;
}

export type CustomerDetail = Omit<CustomerListItem, 'mrr'> & {
  current_subscriptions: CurrentSubscription[];
  converted_mrr: number;
};

/** The derived customers view (/customers): customers with their MRR, and the resync action. */
export function createCustomerMetricsService(
  store: Store,
  metrics: MetricsService,
  fx: FxService,
  reportQuery: ReportQueries,
) {
  async function find(accountId: string, id: string, dataSource?: string) {
    const snapshot = await metrics.snapshotToRead(accountId);
    const matches = snapshot.customers.filter(
      (customer) => customer.id === id && (dataSource === undefined || customer.dataSourceId === dataSource),
    );
    if (matches.length === 0) throw new NotFoundError(`Customer ${id} not found`);
    if (matches.length > 1) {
      throw new ConflictError(`Customer ${id} exists in several data sources; add data_source to choose one`);
    }
    return matches[0]!;
  }

  async function currentSubscriptions(
    accountId: string,
    customer: CustomerView,
    today: number,
  ): Promise<CurrentSubscription[]> {
    const byKey = new Map<string, { planId: string | null; monthly: number }>();
    const key = { dataSourceId: customer.dataSourceId, id: customer.id };
    for (const segment of await metrics.segments(accountId, key)) {
      if (segment.start > today || segment.end <= today) continue;
      const entry = byKey.get(segment.key) ?? { planId: segment.planId, monthly: 0 };
      entry.monthly += segment.monthly;
      byKey.set(segment.key, entry);
    }
    const planKeys = [...byKey.values()].flatMap(({ planId }) => (planId === null ? [] : [planId]));
    const plans = await store.plans.getMany(
      accountId,
      planKeys.map((key) => ({
        dataSourceId: key.slice(0, key.indexOf(':')),
        id: key.slice(key.indexOf(':') + 1),
      })),
    );
    const planOf = new Map(plans.map((plan) => [planKey(plan.data_source, plan.id), plan]));
    return [...byKey.values()]
      .map(({ planId, monthly }) => {
        const plan = planId === null ? undefined : planOf.get(planId);
        return {
          plan_id: plan?.id ?? null,
          name: plan?.name ?? null,
          billing_freq: plan?.billing_freq ?? null,
          billing_freq_count: plan?.billing_freq_count ?? null,
          currency: customer.currency,
          mrr: roundCents(monthly),
        };
      })
      .filter((subscription) => subscription.mrr !== 0);
  }

  return {
    /** One page of the customers view, with the currency its MRR is in. */
    async list(
      accountId: string,
      params: CustomerListParams,
    ): Promise<{ currency: string; list: CustomerListItem[] }> {
      const query = await reportQuery(accountId, params.filters);
      const snapshot = await metrics.snapshotToRead(accountId);
      const selectedDay =
        params.selectedDate === undefined ? undefined : parseReportDay('selected-date', params.selectedDate);
      const start = selectedDay === undefined ? undefined : periodStart(selectedDay, query.interval);
      const list = customersReport(
        snapshot,
        {
          today: query.today,
          baseCurrency: query.baseCurrency,
          customers: filteredCustomers(snapshot, query.filters, query.today),
          status: params.status,
          search: params.q?.trim() ? params.q.trim().toLowerCase() : null,
          selected:
            start === undefined
              ? null
              : { type: params.selectedType, from: start, to: nextPeriodStart(start, query.interval) - 1 },
          sort: params.sort,
          order: params.order,
          limit: params.limit,
          offset: params.offset,
        },
        await fx.table(),
      );
      return { currency: query.baseCurrency, list };
    },

    async detail(
      accountId: string,
      id: string,
      raw: RawReportParams,
      dataSource?: string,
    ): Promise<CustomerDetail> {
      const query = await reportQuery(accountId, raw);
      const customer = await find(accountId, id, dataSource);
      const state = customerState(customer, query.today);
      const table = await fx.table();
      return {
        id: customer.id,
        name: customer.name,
        email: customer.email,
        created_date: state.createdDate,
        country: customer.country,
        trial_started: state.trialStarted,
        paid_started: state.paidStarted,
        cancel_date: state.cancelDate,
        status: state.status,
        currency: customer.currency,
        current_subscriptions: await currentSubscriptions(accountId, customer, query.today),
        // "With the latest exchange rates": today's, or the last day the table has.
        converted_mrr: roundCents(
          table.convert(state.mrr, customer.currency, query.baseCurrency, query.today),
        ),
      };
    },

    /** Recomputes the customer's metrics from its raw records (connectors will re-import here). */
    async resync(accountId: string, id: string, dataSource?: string): Promise<void> {
      const customer = await find(accountId, id, dataSource);
      await metrics.recompute(accountId, { dataSourceId: customer.dataSourceId, id: customer.id });
    },
  };
}

export type CustomerMetricsService = ReturnType<typeof createCustomerMetricsService>;
