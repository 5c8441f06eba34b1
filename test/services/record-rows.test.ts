import { describe, expect, it } from 'vitest';
import { itemsFromRows, refusalPlace } from '../../src/services/record-rows.js';

describe('itemsFromRows and refusalPlace', () => {
  // Invoice x: row 2 a line and a transaction, row 4 a second line; invoice y on row 3.
  const { items, problems } = itemsFromRows('invoices', [
    { line: 2, cells: { id: 'x', line_amount: '100', transaction_id: 't1', transaction_amount: '100' } },
    { line: 3, cells: { id: 'y', line_amount: '50' } },
    { line: 4, cells: { id: 'x', line_amount: '200', line_prorated: 'TRUE' } },
  ]);
  const [x] = items;

  it('groups rows by invoice id, keeping the row of each line and transaction', () => {
    expect(problems).toEqual([]);
    expect(items.map((item) => [item.rows, item.lineRows, item.transactionRows])).toEqual([
      [[2, 4], [2, 4], [2]],
      [[3], [3], []],
    ]);
    expect(x!.item).toEqual({
      id: 'x',
      lines: [{ amount: 100 }, { amount: 200, prorated: true }],
      transactions: [{ id: 't1', amount: 100 }],
    });
  });

  it('places a refusal at the row and field its message names', () => {
    expect(refusalPlace(x!, 'Invalid field "lines.1.amount": must be an integer')).toEqual({
      row: 4,
      field: 'line_amount',
    });
    expect(refusalPlace(x!, 'Missing required fields: date, currency')).toEqual({ row: 2, field: 'date' });
    expect(refusalPlace(x!, 'Invalid field "transactions.0.date": must be an ISO 8601 date')).toEqual({
      row: 2,
      field: 'transaction_date',
    });
    expect(refusalPlace(x!, 'Unknown plan_id "p" (lines.1.plan_id): no such plan')).toEqual({
      row: 4,
      field: 'line_plan_id',
    });
    expect(refusalPlace(x!, 'Unknown customer_id "c": no such customer')).toEqual({
      row: 2,
      field: 'customer_id',
    });
    // A message that names no field: the item's first row, no field.
    expect(refusalPlace(x!, 'Item must be a JSON object')).toEqual({ row: 2, field: null });
  });

  it("places a customer's custom variable refusal at its custom_ field", () => {
    const [customer] = itemsFromRows('customers', [{ line: 7, cells: { id: 'c', custom_tier: 'x' } }]).items;
    expect(customer!.item).toEqual({ id: 'c', custom_variables: { tier: 'x' } });
    expect(refusalPlace(customer!, 'Invalid field "custom_variables.tier": too long')).toEqual({
      row: 7,
      field: 'custom_tier',
    });
  });
});
