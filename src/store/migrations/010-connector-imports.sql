-- A billing-system connector's credentials and the progress of its import, one row per data
-- source. The import writes its checkpoint (which object kind, the system's cursor, the counts)
-- in the same transaction as the page it read, so a restart resumes after the last page stored.

create table connector_secrets (
  account_id uuid not null,
  data_source_id uuid not null,
  -- AES-256-GCM: base64 of iv, authentication tag and ciphertext, joined by dots.
  sealed text not null,
  -- The webhook signing secret, sealed the same way; null until one is given.
  webhook_sealed text,
  created_at timestamptz not null default now(),
  primary key (account_id, data_source_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);

create table connector_imports (
  account_id uuid not null,
  data_source_id uuid not null,
  -- A new id for every start, so a page read for a run that was aborted or reset is not stored.
  run_id uuid not null,
  state text not null check (state in ('running', 'done', 'aborted', 'error')),
  kind_index integer not null default 0,
  kind_count integer not null,
  cursor text,
  fetched integer not null default 0,
  stored integer not null default 0,
  refused integer not null default 0,
  started_at timestamptz not null,
  last_activity_at timestamptz not null,
  finished_at timestamptz,
  last_error text,
  primary key (account_id, data_source_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);

-- Imports to resume when the server starts.
create index connector_imports_running on connector_imports (state) where state = 'running';

-- Webhook events already applied, so a delivery repeated by the system is applied once.
create table connector_events (
  account_id uuid not null,
  data_source_id uuid not null,
  event_id text not null,
  received_at timestamptz not null default now(),
  primary key (account_id, data_source_id, event_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);
