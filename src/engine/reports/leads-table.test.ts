import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber as d } from '../days.js';
import { leadsTable } from './leads-table.js';

const snapshot = buildAccountSnapshot(1, [
  customerView('lead', { name: 'Only a lead', createdDate: '2026-10-05T09:00:00Z' }),
  customerView('trial', {
    name: 'On trial',
    createdDate: '2026-10-10T00:00:00Z',
    trialStarted: '2026-10-12T00:00:00Z',
  }),
  customerView('paid', {
    name: 'Paying',
    createdDate: '2026-10-10T00:00:00Z',
    trialStarted: '2026-10-11T00:00:00Z',
    firstPaidDay: d('2026-10-25'),
    movements: [move('2026-10-25', 'new', 3000)],
  }),
  // Trial starts after today: not reached yet.
  customerView('later', {
    createdDate: '2026-11-01T00:00:00Z',
    trialStarted: '2026-12-01T00:00:00Z',
  }),
  customerView('old', { createdDate: '2026-08-01T00:00:00Z' }),
]);
const query = { from: d('2026-10-01'), to: d('2026-11-30'), today: d('2026-11-23'), customers: null };

describe('leadsTable', () => {
  it('lists the leads of the range newest first, each at the stage it reached by today', () => {
    expect(leadsTable(snapshot, query).map((item) => [item.id, item.status, item.days_to_paid])).toEqual([
      ['later', 'lead', null],
      // Same day: by id.
      ['paid', 'converted', 15], // Oct 10 to Oct 25
      ['trial', 'trial', null],
      ['lead', 'lead', null],
    ]);
    expect(leadsTable(snapshot, query)[1]).toEqual({
      id: 'paid',
      name: 'Paying',
      email: null,
      created_date: '2026-10-10',
      status: 'converted',
      trial_start_date: '2026-10-11',
      paid_start_date: '2026-10-25',
      days_to_paid: 15,
    });
  });

  it('keeps only the customers of the filter', () => {
    const onlyTrial = new Uint8Array([0, 1, 0, 0, 0]);
    expect(leadsTable(snapshot, { ...query, customers: onlyTrial }).map((item) => item.id)).toEqual([
      'trial',
    ]);
  });
});
