import type { RangeQuery } from '../range-query.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import type { AccountSnapshot } from '../account-snapshot.js';
import { breakdownGroups } from '../breakdown.js';
import type { CashflowTable } from '../cashflow/cashflow-table.js';
import { failureCountsByGroup } from '../cashflow/failure-rate.js';
import { percentOrZero } from '../cashflow/to-date.js';
import { twoDecimals } from '../rounding.js';
import type { FxTable } from '../fx-table.js';
import { periodsBetween } from '../periods.js';
import { ratioOrZero } from '../ratio.js';
import { roundCents } from '../rounding.js';
import { baselineOf, cohortFigures, cohortRates, type Rates } from './cohort-windows.js';

/** `fixFx` converts everything at the rate of `to`. */
export type MapQuery = Omit<RangeQuery, 'interval'>;

/** Ratios, rates and shares are 0 where there is nothing to divide by or average (ratioOrZero). */
export interface CountryFigures {
  current_mrr: number;
  subscribers: number;
  arpa: number;
  asp: number;
  customer_churn_rate: number;
  net_mrr_churn: number;
  ltv: number;
  leads: number;
  leads_converted: number;
  lead_conversion_rate: number;
  new_trials: number;
  trials_converted: number;
  trial_conversion_rate: number;
  payment_failure_rate: number;
  mrr_percent: number;
  subscribers_percent: number;
  leads_percent: number;
  trials_percent: number;
}

export interface MapReport {
  /** By lower-case ISO 3166 alpha-2 code. */
  list: Record<string, CountryFigures>;
  /** The same figures for the customers without a country; null when there are none to show. */
  unknown: CountryFigures | null;
}

const NEW = MOVEMENT_KINDS.indexOf('new');

/** The mean of the non-null rates (the months with a cohort), or 0 without any. */
function meanRate(rates: readonly Rates[], rate: keyof Rates): number {
  const values = rates.map((row) => row[rate]).filter((value) => value !== null);
  return ratioOrZero(
    values.reduce((sum, value) => sum + value, 0),
    values.length,
  );
}

/** Per group: leads, trials and the conversions among them by `to`, from the customers' funnel days. */
function funnelCounts(snapshot: AccountSnapshot, groupOf: Int32Array, groupCount: number, query: MapQuery) {
  const counts = Array.from({ length: groupCount }, () => ({
    leads: 0,
    leadsConverted: 0,
    trials: 0,
    trialsConverted: 0,
  }));
  // The funnel columns hold NEVER for a stage not reached, which no range contains.
  const { lead, trial, paid } = snapshot.funnel;
  const inRange = (day: number) => day >= query.from && day <= query.to;
  for (let index = 0; index < groupOf.length; index++) {
    const group = groupOf[index]!;
    if (group < 0) continue;
    const count = counts[group]!;
    const paidDay = paid[index]!;
    if (inRange(lead[index]!)) {
      count.leads += 1;
      if (paidDay <= query.to) count.leadsConverted += 1;
    }
    if (inRange(trial[index]!)) {
      count.trials += 1;
      if (paidDay >= trial[index]! && paidDay <= query.to) count.trialsConverted += 1;
    }
  }
  return counts;
}

/** Per group: the new MRR of the range in the base currency, unrounded, and the new customers. */
function newBusiness(
  snapshot: AccountSnapshot,
  groupOf: Int32Array,
  groupCount: number,
  query: MapQuery,
  fx: FxTable,
) {
  const { movements } = snapshot;
  const amount = new Float64Array(groupCount);
  const customers = new Int32Array(groupCount);
  const converters = movements.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  const last = Math.min(query.to, query.today);
  for (let i = 0; i < movements.movementCount && movements.movementDay[i]! <= last; i++) {
    const customer = movements.movementCustomer[i]!;
    const group = groupOf[customer]!;
    if (movements.movementDay[i]! < query.from || movements.movementKind[i] !== NEW || group < 0) continue;
    const day = query.fixFx ? query.to : movements.movementDay[i]!;
    amount[group]! += converters[movements.customerCurrency[customer]!]!(movements.movementAmount[i]!, day);
    customers[group]! += 1;
  }
  return { amount, customers };
}

/**
 * Per country (lower-case code), as of the range's last day: MRR and subscribers, ARPA, and
 * over the range: ASP, the mean monthly customer and net MRR churn rates (the month-over-month
 * windows of /reports/retention), LTV = ARPA / that customer churn rate, leads, trials and their
 * conversions, and the payment failure rate. Shares are of the sums over every customer the
 * filters keep. A country appears when it has anything to show; customers without a country
 * are reported apart, so the list and `unknown` add up to the account's totals.
 */
export function mapReport(
  snapshot: AccountSnapshot,
  cashflow: CashflowTable,
  query: MapQuery,
  fx: FxTable,
): MapReport {
  const { values, groupOf } = breakdownGroups(snapshot, 'country', query.customers, query.to);
  const groupCount = values.length;
  const cohortQuery = {
    today: query.today,
    baseCurrency: query.baseCurrency,
    fixedRateDay: query.fixFx ? query.to : null,
  };
  const endOfRange = { baseline: query.to, target: query.to };
  // Month-over-month windows over the range, and last a window that only holds who pays at its end.
  const months = periodsBetween(query.from, query.to, 'month').map((month) => ({
    baseline: baselineOf(month.end, 1),
    target: month.end,
  }));
  const figures = cohortFigures(
    snapshot,
    [...months, endOfRange],
    { ...cohortQuery, groupOf, groupCount },
    fx,
  );
  const atEnd = figures.pop()!;
  const funnel = funnelCounts(snapshot, groupOf, groupCount, query);
  const fresh = newBusiness(snapshot, groupOf, groupCount, query, fx);
  // Per group: invoices with a payment attempt in the range, and those whose first failure is in it.
  const failures = failureCountsByGroup(cashflow, groupOf, groupCount, { start: query.from, end: query.to });
  // Shares are of the sums of the groups, so that they add up to 100 %.
  const totalOf = (figure: (group: number) => number) =>
    values.reduce((sum, _, group) => sum + figure(group), 0);
  const totalMrr = totalOf((group) => atEnd[group]!.baselineMrr);
  const totalSubscribers = totalOf((group) => atEnd[group]!.customers);
  const totalLeads = totalOf((group) => funnel[group]!.leads);
  const totalTrials = totalOf((group) => funnel[group]!.trials);

  const report: MapReport = { list: {}, unknown: null };
  values.forEach((country, group) => {
    const end = atEnd[group]!;
    const monthly = figures.map((perGroup) => perGroup[group]!);
    const { leads, leadsConverted, trials, trialsConverted } = funnel[group]!;
    const { attempted, failed } = failures[group]!;
    const active = end.customers > 0 || monthly.some((month) => month.customers > 0);
    if (!active && fresh.customers[group] === 0 && leads === 0 && trials === 0 && attempted === 0) return;

    const rates = monthly.map(cohortRates);
    const churn = meanRate(rates, 'customerChurn');
    const netChurn = meanRate(rates, 'netMrrChurn');
    const arpa = roundCents(ratioOrZero(end.baselineMrr, end.customers));
    const figuresOfCountry: CountryFigures = {
      current_mrr: end.baselineMrr,
      subscribers: end.customers,
      arpa,
      asp: roundCents(ratioOrZero(roundCents(fresh.amount[group]!), fresh.customers[group]!)),
      customer_churn_rate: twoDecimals(churn * 100),
      net_mrr_churn: twoDecimals(netChurn * 100),
      ltv: roundCents(ratioOrZero(arpa, churn)),
      leads,
      leads_converted: leadsConverted,
      lead_conversion_rate: percentOrZero(leadsConverted, leads),
      new_trials: trials,
      trials_converted: trialsConverted,
      trial_conversion_rate: percentOrZero(trialsConverted, trials),
      payment_failure_rate: percentOrZero(failed, attempted),
      mrr_percent: percentOrZero(end.baselineMrr, totalMrr),
      subscribers_percent: percentOrZero(end.customers, totalSubscribers),
      leads_percent: percentOrZero(leads, totalLeads),
      trials_percent: percentOrZero(trials, totalTrials),
    };
    if (country === null) report.unknown = figuresOfCountry;
    else report.list[country.toLowerCase()] = figuresOfCountry;
  });
  return report;
}
