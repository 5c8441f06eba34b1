-- What the metrics engine derives from each customer's raw records. Rewritten, customer by
-- customer, whenever those records change; raw records stay the truth.

create table customer_metrics (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  customer_id text not null,
  -- The currency the customer's MRR is kept in.
  currency text not null,
  -- First day with MRR above zero, null for a customer who never paid.
  first_paid_day date,
  -- Plans billed on, as "data_source_id:plan_id", and their billing frequencies, for filters.
  plans jsonb not null default '[]',
  billing_freqs jsonb not null default '[]',
  -- The plan of the customer's latest revenue, and its frequency: one value per customer for breakdowns.
  primary_plan text,
  primary_billing_freq text,
  -- Revenue segments [{key, subscription_id, plan_id, start, end, monthly}] for current subscriptions.
  segments jsonb not null default '[]',
  primary key (account_id, data_source_id, customer_id),
  foreign key (account_id, data_source_id, customer_id) references customers (account_id, data_source_id, customer_id)
    on delete cascade
);

create table mrr_movements (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  customer_id text not null,
  day date not null,
  kind text not null check (kind in ('new', 'expansion', 'contraction', 'churn', 'reactivation')),
  -- Signed cents of the customer's currency.
  amount bigint not null,
  scheduled boolean not null,
  known_day date,
  primary key (account_id, data_source_id, customer_id, day),
  foreign key (account_id, data_source_id, customer_id) references customers (account_id, data_source_id, customer_id)
    on delete cascade
);
