-- Reads of a whole account go page by page in primary-key order: `where key > last order by key
-- limit n`. On a table without statistics the planner estimates a third of the table behind any
-- key, finds sorting that cheaper than walking the index in order, and reads and sorts the rest
-- of the account for every page: a read of the whole account grew with its square (400,000
-- invoices: 0.8 s for the first page of 20,000 instead of 0.04 s). These functions run the page
-- query with sorts and bitmap scans priced out, so it always walks the primary key in order and
-- stops after n rows, with or without statistics.

create function customers_page(account uuid, after_source uuid, after_id text, size integer)
  returns setof customers language sql stable
  set enable_sort = off set enable_bitmapscan = off set enable_seqscan = off
as $$
  select * from customers
  where account_id = account
    and (after_source is null or (data_source_id, customer_id) > (after_source, after_id))
  order by data_source_id, customer_id
  limit size
$$;

create function invoices_page(account uuid, after_source uuid, after_id text, size integer)
  returns setof invoices language sql stable
  set enable_sort = off set enable_bitmapscan = off set enable_seqscan = off
as $$
  select * from invoices
  where account_id = account
    and (after_source is null or (data_source_id, invoice_id) > (after_source, after_id))
  order by data_source_id, invoice_id
  limit size
$$;

