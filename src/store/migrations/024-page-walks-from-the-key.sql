-- The page functions of migration 009 took the first page by `after_source is null or key >
-- after`. A SQL function's query is planned without its arguments' values, so that condition
-- could not bound the index scan: every page walked the account's keys from the first one and
-- a read of the whole account grew with its square again (1,030,000 invoices: 40 ms for the
-- first page, 525 ms for one nine tenths in). Each case is now a statement of its own, whose
-- key condition starts the walk.

create or replace function customers_page(account uuid, after_source uuid, after_id text, size integer)
  returns setof customers language plpgsql stable
  set enable_sort = off set enable_bitmapscan = off set enable_seqscan = off
as $$
begin
  if after_source is null then
    return query select * from customers where account_id = account
      order by data_source_id, customer_id limit size;
  else
    return query select * from customers
      where account_id = account and (data_source_id, customer_id) > (after_source, after_id)
      order by data_source_id, customer_id limit size;
  end if;
end
$$;

create or replace function invoices_page(account uuid, after_source uuid, after_id text, size integer)
  returns setof invoices language plpgsql stable
  set enable_sort = off set enable_bitmapscan = off set enable_seqscan = off
as $$
begin
  if after_source is null then
    return query select * from invoices where account_id = account
      order by data_source_id, invoice_id limit size;
  else
    return query select * from invoices
      where account_id = account and (data_source_id, invoice_id) > (after_source, after_id)
      order by data_source_id, invoice_id limit size;
  end if;
end
$$;
