/** An invoice as the customer page reads it from /reports/invoices-detail. */
export interface Invoice {
  invoice_ref: string;
  invoice_number: string | null;
  invoice_date: string;
  invoice_status: string;
  currency: string;
  total: number;
  lines: InvoiceLine[];
}

export interface InvoiceLine {
  description: string | null;
  amount: number;
  period_start: string | null;
  period_end: string | null;
}

export interface LineBehind extends InvoiceLine {
  invoice: string;
  currency: string;
}

// Draft and void invoices carry no MRR (docs/metrics.md), so no movement comes from them.
const COUNTED = (invoice: Invoice) => invoice.invoice_status !== 'draft' && invoice.invoice_status !== 'void';

/**
 * The invoice lines that made a movement of the customer's MRR on `date` (YYYY-MM-DD): for a
 * churn, the lines whose period ended last before it (the revenue that stopped); for any other
 * movement, the lines whose period holds the day (the revenue that started or changed). A
 * period's end is the first day after it, as invoices store it.
 */
export function linesBehind(
  movement: { date: string; type: string },
  invoices: readonly Invoice[],
): LineBehind[] {
  const lines = invoices
    .filter(COUNTED)
    .flatMap((invoice) =>
      invoice.lines.flatMap((line) =>
        line.period_start === null || line.period_end === null
          ? []
          : [{ ...line, invoice: invoice.invoice_number ?? invoice.invoice_ref, currency: invoice.currency }],
      ),
    );
  if (movement.type !== 'churn')
    return lines.filter((line) => line.period_start! <= movement.date && movement.date < line.period_end!);
  const ended = lines.filter((line) => line.period_end! <= movement.date);
  const last = ended.reduce((latest, line) => (line.period_end! > latest ? line.period_end! : latest), '');
  return ended.filter((line) => line.period_end === last);
}
