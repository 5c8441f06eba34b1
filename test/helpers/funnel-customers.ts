import { type CustomerView, funnelColumns } from '../../src/engine/account-snapshot.js';
import { dayNumber } from '../../src/engine/days.js';
import { customerView } from './customer-view.js';

/** Today in the funnel fixture: Monday 2026-11-23, day 327 of the year. */
export const FUNNEL_TODAY = dayNumber('2026-11-23');

const at = (day: string | null) => (day === null ? null : `${day}T09:30:00.000Z`);

/** A customer created (a lead) on `lead`, with its trial start and first day with MRR. */
function funnel(
  id: string,
  lead: string,
  trial: string | null,
  firstPaid: string | null,
  extra: Partial<CustomerView> = {},
): CustomerView {
  return customerView(id, {
    createdDate: at(lead)!,
    trialStarted: at(trial),
    firstPaidDay: firstPaid === null ? null : dayNumber(firstPaid),
    ...extra,
  });
}

/*
 * The engine fixture of the lead reports. Days from lead to paid and from trial to paid:
 *
 *   id  lead    trial   paid                        lead->paid  trial->paid
 *   a   Sep 5   Sep 5   Sep 19                      14          14
 *   b   Sep 10  Sep 12  -                           -           -
 *   c   Sep 20  -       Sep 25 (the record's; MRR   5           -
 *                       from Sep 26 is not used)
 *   d   Sep 28  Oct 2   Oct 16                      18          14
 *   e   Oct 3   Oct 3   Nov 2                       30          30
 *   f   Oct 15  Oct 16  -                           -           -
 *   n   Oct 20  -       Oct 1 (imported late)       0, not -19  -
 *   g   Nov 2   Nov 4   Nov 18                      16          14
 *   h   Nov 10  -       -                           -           -
 *   i   Nov 20  Nov 20  -                           -           -
 *   j   Nov 23  Dec 1   Dec 1 (both after today:    -           -
 *       (today)         not reached yet)
 *   k   Dec 5   -       -          (a lead after today: not counted)
 *   m   Oct 1   Oct 1   Oct 8      (currency eur: the mask of the tests drops it)
 */
export const FUNNEL_CUSTOMERS: readonly CustomerView[] = [
  funnel('a', '2026-09-05', '2026-09-05', '2026-09-19'),
  funnel('b', '2026-09-10', '2026-09-12', null),
  funnel('c', '2026-09-20', null, '2026-09-26', { paidStarted: '2026-09-25T00:00:00.000Z' }),
  funnel('d', '2026-09-28', '2026-10-02', '2026-10-16'),
  funnel('e', '2026-10-03', '2026-10-03', '2026-11-02'),
  funnel('f', '2026-10-15', '2026-10-16', null),
  funnel('n', '2026-10-20', null, '2026-10-01'),
  funnel('g', '2026-11-02', '2026-11-04', '2026-11-18'),
  funnel('h', '2026-11-10', null, null),
  funnel('i', '2026-11-20', '2026-11-20', null),
  funnel('j', '2026-11-23', '2026-12-01', '2026-12-01'),
  funnel('k', '2026-12-05', null, null),
  funnel('m', '2026-10-01', '2026-10-01', '2026-10-08', { currency: 'eur' }),
];

/** The funnel days of FUNNEL_CUSTOMERS, as the account snapshot holds them. */
export const FUNNEL = funnelColumns(FUNNEL_CUSTOMERS);

/** Keeps every customer but `m`. */
export const WITHOUT_M = Uint8Array.from(FUNNEL_CUSTOMERS, (customer) => (customer.id === 'm' ? 0 : 1));

/** Keeps a, b, c, d, g and h: the worked example of docs/metrics.md. */
export const DOCS_EXAMPLE = Uint8Array.from(FUNNEL_CUSTOMERS, (customer) =>
  ['a', 'b', 'c', 'd', 'g', 'h'].includes(customer.id) ? 1 : 0,
);
