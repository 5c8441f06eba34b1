-- Raw billing data: customers, plans, plan groups, invoices (lines, transactions) and
-- subscriptions, plus the change tracking the metrics engine reads.
-- Records are keyed (account_id, data_source_id, external id): deleting a data source or a
-- customer removes what belongs to it through the foreign keys.

create table customers (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  customer_id text not null,
  name text,
  email text,
  created_date timestamptz not null,
  country text check (country ~ '^[A-Z]{2}$'),
  state text,
  currency text check (currency ~ '^[a-z]{3}$'),
  status text not null default 'active' check (status in ('active', 'cancelled')),
  trial_started timestamptz,
  trial_end_date timestamptz,
  paid_started timestamptz,
  cancel_date timestamptz,
  overdue_date timestamptz,
  cancel_reason text,
  custom_variables jsonb not null default '{}',
  primary key (account_id, data_source_id, customer_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);
-- Reads by external id alone search every data source of the account.
create index customers_by_external_id on customers (account_id, customer_id);

create table plans (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  plan_id text not null,
  name text not null,
  billing_freq text not null check (billing_freq in ('day', 'week', 'month', 'quarter', 'year')),
  billing_freq_count integer not null default 1 check (billing_freq_count > 0),
  product_name text,
  currency text not null check (currency ~ '^[a-z]{3}$'),
  primary key (account_id, data_source_id, plan_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);
create index plans_by_external_id on plans (account_id, plan_id);

create table plan_groups (
  account_id uuid not null references accounts (account_id) on delete cascade,
  plan_group_id uuid not null,
  name text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, plan_group_id)
);

-- Deleting a plan removes it from its groups; deleting a group keeps its plans.
create table plan_group_plans (
  account_id uuid not null references accounts (account_id) on delete cascade,
  plan_group_id uuid not null,
  data_source_id uuid not null,
  plan_id text not null,
  position integer not null,
  primary key (account_id, plan_group_id, data_source_id, plan_id),
  foreign key (account_id, plan_group_id) references plan_groups (account_id, plan_group_id) on delete cascade,
  foreign key (account_id, data_source_id, plan_id) references plans (account_id, data_source_id, plan_id)
    on delete cascade
);

create table invoices (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  invoice_id text not null,
  customer_id text not null,
  date date not null,
  due_date date,
  currency text not null check (currency ~ '^[a-z]{3}$'),
  status text not null check (status in ('draft', 'open', 'paid', 'void', 'uncollectible')),
  number text,
  description text,
  payment_date date,
  -- Sum of line amounts plus tax, or the total given for an invoice without lines.
  total bigint not null,
  primary key (account_id, data_source_id, invoice_id),
  foreign key (account_id, data_source_id, customer_id) references customers (account_id, data_source_id, customer_id)
    on delete cascade
);
create index invoices_by_external_id on invoices (account_id, invoice_id);
-- Secondary indexes leave data_source_id out: PGlite never gathers statistics on its own, and
-- without them the planner takes an index sharing the key's (account_id, data_source_id) prefix
-- for key lookups, scanning a whole data source per row (measured: 30x slower bulk imports).
create index invoices_by_customer on invoices (account_id, customer_id);

-- Plans are not foreign keys here: deleting a plan must not rewrite billing history.
create table invoice_lines (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  invoice_id text not null,
  line_id text not null,
  position integer not null,
  type text not null check (type in ('subscription', 'one_time')),
  subscription_id text,
  plan_id text,
  description text,
  amount bigint not null,
  quantity integer not null,
  period_start date,
  period_end date,
  discount bigint not null,
  tax bigint not null,
  prorated boolean not null,
  primary key (account_id, data_source_id, invoice_id, line_id),
  foreign key (account_id, data_source_id, invoice_id) references invoices (account_id, data_source_id, invoice_id)
    on delete cascade,
  check (type <> 'subscription' or (period_start is not null and period_end > period_start))
);
create index invoice_lines_by_plan on invoice_lines (account_id, plan_id);

create table invoice_transactions (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  invoice_id text not null,
  transaction_id text not null,
  position integer not null,
  date timestamptz not null,
  type text not null check (type in ('payment', 'refund')),
  result text not null check (result in ('successful', 'failed')),
  amount bigint not null,
  payment_method text,
  primary key (account_id, data_source_id, invoice_id, transaction_id),
  foreign key (account_id, data_source_id, invoice_id) references invoices (account_id, data_source_id, invoice_id)
    on delete cascade
);

create table subscriptions (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  subscription_id text not null,
  customer_id text not null,
  plan_id text,
  quantity integer not null,
  status text not null check (status in ('active', 'trialing', 'past_due', 'canceled', 'ended')),
  started_at timestamptz not null,
  cancel_requested_at timestamptz,
  cancel_at timestamptz,
  ended_at timestamptz,
  mrr bigint,
  currency text check (currency ~ '^[a-z]{3}$'),
  -- [{date, plan_id?, quantity?, amount?}], read whole by the engine.
  scheduled_changes jsonb not null default '[]',
  primary key (account_id, data_source_id, subscription_id),
  foreign key (account_id, data_source_id, customer_id) references customers (account_id, data_source_id, customer_id)
    on delete cascade
);
create index subscriptions_by_external_id on subscriptions (account_id, subscription_id);
create index subscriptions_by_customer on subscriptions (account_id, customer_id);
create index subscriptions_by_plan on subscriptions (account_id, plan_id);

-- Moves once per write request, so cached report snapshots know when to reload.
create table account_data_state (
  account_id uuid primary key references accounts (account_id) on delete cascade,
  data_version bigint not null default 0
);

-- Customers whose records, invoices or subscriptions changed since the metrics engine last
-- claimed them. No foreign key to customers: a deleted customer must stay listed here.
create table dirty_customers (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  customer_id text not null,
  primary key (account_id, data_source_id, customer_id)
);
