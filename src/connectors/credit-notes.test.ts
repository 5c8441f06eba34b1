import { describe, expect, it } from 'vitest';
import { creditNoteLines } from './credit-notes.js';

describe('creditNoteLines', () => {
  it('makes each line of a credit note that is not voided a negative line keyed by note and line', () => {
    const notes = [
      {
        id: 'cn_1',
        state: 'issued',
        items: [
          { id: 'l1', net: 4000, off: 1000, vat: 400 },
          { id: 'l2', net: 500, off: 0, vat: 50 },
        ],
      },
      { id: 'cn_2', state: 'void', items: [{ id: 'l1', net: 9999, off: 0, vat: 0 }] },
    ];
    const lines = creditNoteLines(
      notes,
      { voided: (note) => note.state === 'void', lines: (note) => note.items },
      (item, note) => ({ id: item.id, amount: item.net, discount: item.off, tax: item.vat, from: note.id }),
    );
    expect(lines).toEqual([
      { id: 'cn_1:l1', amount: -4000, discount: 0, tax: -400, from: 'cn_1' },
      { id: 'cn_1:l2', amount: -500, discount: 0, tax: -50, from: 'cn_1' },
    ]);
  });
});
