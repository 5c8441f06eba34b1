-- Why each MRR movement happened (docs/metrics.md, "Movement subtypes"): what changed in the
-- subscriptions for an expansion or contraction, cancellation or non-payment for a churn.

alter table mrr_movements add column subtype text;

-- Until the refresh below reaches them, rows take the subtype their kind has when nothing more
-- is known, so no reader ever sees a null.
update mrr_movements set subtype = case kind
  when 'new' then 'new'
  when 'reactivation' then 'reactivation'
  when 'churn' then 'voluntary'
  else 'other'
end;

alter table mrr_movements
  alter column subtype set not null,
  add constraint mrr_movements_subtype_check check (subtype in ('new', 'reactivation', 'plan_change', 'add_on',
    'quantity_change', 'discount_change', 'price_change', 'fx', 'other', 'voluntary', 'delinquent'));

-- Every customer derives its subtypes on the next refresh, as migration 013 did for its columns.
insert into dirty_customers (account_id, data_source_id, customer_id)
  select account_id, data_source_id, customer_id from customers
  on conflict do nothing;
update account_data_state set data_version = data_version + 1;
