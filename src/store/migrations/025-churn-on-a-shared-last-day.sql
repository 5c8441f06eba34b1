-- A churn after several counted invoices on its customer's latest invoice day is delinquent
-- when any of them is unpaid (docs/metrics.md, "Movement subtypes"); before, the one read last
-- decided. The customers with a churn derive their subtypes again on the next refresh, and
-- their accounts' snapshots are rebuilt after it, as migration 016 did for every customer.
insert into dirty_customers (account_id, data_source_id, customer_id)
  select distinct account_id, data_source_id, customer_id from mrr_movements where kind = 'churn'
  on conflict do nothing;
update account_data_state s set data_version = data_version + 1
  where exists (select 1 from mrr_movements m where m.account_id = s.account_id and m.kind = 'churn');
