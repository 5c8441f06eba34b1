import type { AccountSnapshot } from '../account-snapshot.js';
import { dayString } from '../days.js';
import type { RangeQuery } from '../range-query.js';
import { daysBetween } from './leads-funnel.js';

/** The leads created in `[from, to]` are listed. */
export type LeadsTableQuery = Pick<RangeQuery, 'today' | 'from' | 'to' | 'customers'>;

export interface LeadItem {
  id: string;
  name: string | null;
  email: string | null;
  /** The day the customer was created: its day as a lead. */
  created_date: string;
  /** How far it got by today: `lead`, `trial` (started one, not paying yet) or `converted`. */
  status: 'lead' | 'trial' | 'converted';
  trial_start_date: string | null;
  paid_start_date: string | null;
  /** Days from lead to paid, for a converted lead. */
  days_to_paid: number | null;
}

/**
 * The leads one row each, newest first (ties by id), with the stage each reached by today:
 * the leads that `/reports/leads` counts over the same range and filters.
 */
export function leadsTable(snapshot: AccountSnapshot, query: LeadsTableQuery): LeadItem[] {
  const { funnel, customers } = snapshot;
  const reached = (day: number) => (day <= query.today ? day : null);
  const items: { day: number; item: LeadItem }[] = [];
  for (let index = 0; index < customers.length; index++) {
    if (query.customers !== null && query.customers[index] !== 1) continue;
    const lead = funnel.lead[index]!;
    if (lead < query.from || lead > query.to || lead > query.today) continue;
    const trial = reached(funnel.trial[index]!);
    const paid = reached(funnel.paid[index]!);
    const customer = customers[index]!;
    items.push({
      day: lead,
      item: {
        id: customer.id,
        name: customer.name,
        email: customer.email,
        created_date: dayString(lead),
        status: paid !== null ? 'converted' : trial !== null ? 'trial' : 'lead',
        trial_start_date: trial === null ? null : dayString(trial),
        paid_start_date: paid === null ? null : dayString(paid),
        days_to_paid: paid === null ? null : daysBetween(lead, paid),
      },
    });
  }
  items.sort((a, b) => b.day - a.day || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return items.map(({ item }) => item);
}
