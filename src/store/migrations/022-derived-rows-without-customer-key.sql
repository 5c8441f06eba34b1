-- What the engine derived for a customer no longer holds a foreign key to the customer's row.
-- The key made every refresh take a share lock on each customer row it derived, while a write
-- that updates a customer holds that row and then marks the customer dirty, waiting for the
-- refresh that claimed the mark: a deadlock whenever a refresh ran beside an import. The key
-- guarded nothing the engine does not: a deleted customer is marked dirty, and its refresh
-- deletes its derived rows; a report reads customers first, so a derived row whose customer
-- is gone is never shown.
do $$
declare
  key record;
begin
  for key in
    select conrelid::regclass as owner, conname
    from pg_constraint
    where contype = 'f' and confrelid = 'customers'::regclass
      and conrelid in ('customer_metrics'::regclass, 'mrr_movements'::regclass)
  loop
    execute format('alter table %s drop constraint %I', key.owner, key.conname);
  end loop;
end $$;
