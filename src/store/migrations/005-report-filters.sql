-- What the remaining report filters read: a plan's pricing model, and per customer the payment
-- methods, pricing models, discount and quantity the engine derives; plus saved segments.

alter table plans add column pricing_model text not null default 'licensed'
  check (pricing_model in ('licensed', 'metered'));

alter table customer_metrics
  -- Lower-case payment methods of the customer's transactions.
  add column payment_methods jsonb not null default '[]',
  -- Pricing models of the plans billed on.
  add column pricing_models jsonb not null default '[]',
  -- Whether the customer's latest subscription invoice carries a discount.
  add column has_discount boolean not null default false,
  -- Total subscription quantity over time [{day, quantity}] (day numbers).
  add column quantities jsonb not null default '[]';

-- Saved filter combinations that any report expands with `segment=<id>`.
create table segments (
  account_id uuid not null references accounts (account_id) on delete cascade,
  segment_id uuid not null,
  name text not null,
  description text,
  -- Report filter parameters, {parameter: value}.
  filters jsonb not null,
  mode text not null check (mode in ('filter', 'breakdown')),
  created_at timestamptz not null default now(),
  primary key (account_id, segment_id)
);

-- Every customer derives the new columns on the next refresh.
insert into dirty_customers (account_id, data_source_id, customer_id)
  select account_id, data_source_id, customer_id from customers
  on conflict do nothing;
update account_data_state set data_version = data_version + 1;
