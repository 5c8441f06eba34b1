-- Which customers each refresh re-derived, at which data version: a process holding a report
-- snapshot of an older version reads these keys and patches its snapshot instead of reading
-- the whole account again (docs/decisions.md, "Snapshots are patched"). Rows older than an
-- hour are pruned; a snapshot older than that is rebuilt whole.
create table derived_changes (
  account_id uuid not null references accounts (account_id) on delete cascade,
  data_version bigint not null,
  data_source_id uuid not null,
  customer_id text not null,
  changed_at timestamptz not null default now()
);
create index derived_changes_by_version on derived_changes (account_id, data_version);
