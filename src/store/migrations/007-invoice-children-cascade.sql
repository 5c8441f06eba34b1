-- A foreign key checks every written line and transaction against its invoice, which made up
-- a third of the cost of storing them. The store writes them only together with their invoice
-- (src/store/invoices-repo.ts), so the key's one remaining job is the cascade: this trigger
-- does it, on the rare deletes instead of on every write. An invoice being replaced is locked
-- by its upsert, so a concurrent delete waits and then removes the new lines too.
alter table invoice_lines drop constraint invoice_lines_account_id_data_source_id_invoice_id_fkey;
alter table invoice_transactions drop constraint invoice_transactions_account_id_data_source_id_invoice_id_fkey;

create function delete_invoice_children() returns trigger language plpgsql as $$
begin
  delete from invoice_lines
    where account_id = old.account_id and data_source_id = old.data_source_id and invoice_id = old.invoice_id;
  delete from invoice_transactions
    where account_id = old.account_id and data_source_id = old.data_source_id and invoice_id = old.invoice_id;
  return null;
end;
$$;

create trigger invoices_delete_children after delete on invoices
  for each row execute function delete_invoice_children();
