-- A customer's dirty mark belongs to the transaction that made it. With one row per customer, a
-- write that found its customer already marked wrote nothing, and a refresh that claimed that
-- older mark before the write committed derived the customer without the write's records and
-- left it unmarked (docs/decisions.md, "Change tracking"). Now each write adds its own row,
-- which no refresh can see, and so claim, before the write commits.
alter table dirty_customers
  add column marked_by bigint not null default (pg_current_xact_id()::text::bigint);
alter table dirty_customers drop constraint dirty_customers_pkey;
alter table dirty_customers add primary key (account_id, data_source_id, customer_id, marked_by);
