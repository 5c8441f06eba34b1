-- One value per customer for the `payment_method` and `pricing_model` breakdowns, which the
-- lists of payment methods and pricing models the filters read cannot give.

alter table customer_metrics
  -- Lower-case payment method of the customer's latest successful payment.
  add column latest_payment_method text,
  -- Pricing model of primary_plan.
  add column primary_pricing_model text;

-- Every customer derives the new columns on the next refresh.
insert into dirty_customers (account_id, data_source_id, customer_id)
  select account_id, data_source_id, customer_id from customers
  on conflict do nothing;
update account_data_state set data_version = data_version + 1;
