// How a billing system's credit notes enter the /data shape, which has no credit note of its
// own (docs/connectors.md): the same rule for every connector that imports them.

/** What a credited line carries that the rule changes. */
interface LineAmounts {
  amount: number;
  discount: number;
  tax: number;
}

/**
 * The lines of the credit notes issued against one invoice, as negative lines of that invoice
 * keyed `{credit note id}:{line id}`; voided credit notes are left out. `line` maps a credit
 * note's line as the invoice line it would be if it were charged; the credit is its negative,
 * with no discount of its own (the discount lowered what it credits).
 */
export function creditNoteLines<
  Note extends { id: string },
  Line extends { id?: string },
  Mapped extends LineAmounts,
>(
  notes: readonly Note[],
  read: { voided: (note: Note) => boolean; lines: (note: Note) => readonly Line[] },
  line: (line: Line, note: Note) => Mapped,
): Mapped[] {
  return notes
    .filter((note) => !read.voided(note))
    .flatMap((note) =>
      read.lines(note).map((item) => {
        const charged = line(item, note);
        return {
          ...charged,
          id: `${note.id}:${item.id}`,
          amount: -charged.amount,
          discount: 0,
          tax: -charged.tax,
        };
      }),
    );
}
