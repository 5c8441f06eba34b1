-- Accounts, their API keys and team members, data sources and settings.
-- Every table's key starts with account_id: tenant isolation, and ready to shard by account.

create table accounts (
  account_id uuid primary key,
  name text not null,
  base_currency text not null default 'usd' check (base_currency ~ '^[a-z]{3}$'),
  created_at timestamptz not null default now()
);

create table api_keys (
  account_id uuid not null references accounts (account_id) on delete cascade,
  key_id uuid not null,
  name text not null,
  access_level text not null check (access_level in ('admin', 'viewer')),
  -- sha-256 of the secret; the secret itself is never stored.
  secret_hash text not null,
  prefix text not null,
  created_at timestamptz not null default now(),
  last_used timestamptz,
  primary key (account_id, key_id)
);
-- Authentication finds a key by its hash before it knows the account.
create unique index api_keys_secret_hash on api_keys (secret_hash);

create table team_members (
  account_id uuid not null references accounts (account_id) on delete cascade,
  member_id uuid not null,
  email text not null,
  name text not null default '',
  role text not null check (role in ('owner', 'admin', 'readonly')),
  status text not null default 'pending' check (status in ('active', 'pending', 'disabled')),
  last_login timestamptz,
  -- Set when the member signs in to the web interface for the first time.
  password_hash text,
  created_at timestamptz not null default now(),
  primary key (account_id, member_id)
);
create unique index team_members_email on team_members (account_id, lower(email));

create table data_sources (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_source_id uuid not null,
  name text not null,
  type text not null check (type in ('processor-a', 'processor-b', 'processor-c', 'api', 'csv', 'spreadsheet')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Connection and sync state, filled by the billing-system connectors.
  external_account_id text,
  external_account_name text,
  livemode boolean,
  connected_at timestamptz,
  sync_status text check (sync_status in ('syncing', 'complete', 'error')),
  last_sync_at timestamptz,
  customers_imported integer not null default 0,
  invoices_imported integer not null default 0,
  primary key (account_id, data_source_id)
);

create table account_settings (
  account_id uuid primary key references accounts (account_id) on delete cascade,
  -- Only what the account changed; the service fills in the defaults.
  notifications jsonb not null default '{}'
);
