-- The invoice's foreign key to its customer checked every written invoice, though each import
-- already checks the customers of a whole body in one query (src/services/reference-checks.ts),
-- which also locks them (`for key share`) as the key did, so that a customer deleted meanwhile
-- waits for the import or is refused by it. What the key still did is the cascade: a trigger
-- on the customer's deletion does it now, and the invoices' own trigger takes their lines.
alter table invoices drop constraint invoices_account_id_data_source_id_customer_id_fkey;

create function delete_customer_invoices() returns trigger language plpgsql as $$
begin
  delete from invoices
    where account_id = old.account_id and data_source_id = old.data_source_id and customer_id = old.customer_id;
  return null;
end;
$$;

create trigger customers_delete_invoices after delete on customers
  for each row execute function delete_customer_invoices();
