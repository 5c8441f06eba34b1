-- CSV and XLSX files uploaded into a data source, and the column mappings saved per data source
-- and record kind.
--
-- An upload keeps its parsed rows (upload_rows: every cell as text), not the file's bytes:
-- parsing once at upload lets the preview, the mapping and the import read the same rows, and
-- an import goes on after its last stored batch after a restart. Uploads are
-- deleted 7 days after they were made (by the account's next upload), or with their data source.
create table uploads (
  account_id uuid not null,
  upload_id uuid not null,
  data_source_id uuid not null,
  kind text not null check (kind in ('customers', 'plans', 'invoices', 'subscriptions')),
  format text not null check (format in ('csv', 'xlsx')),
  -- The header row's cells, as written.
  columns jsonb not null,
  row_count integer not null,
  -- { column: field }: what the import applies.
  mapping jsonb not null,
  state text not null check (state in ('uploaded', 'running', 'done', 'error')),
  -- Rows the import has been through, good or not, and the records (items: an invoice is all
  -- its rows) it has stored or refused: a resumed import goes on with the next item.
  rows_done integer not null default 0,
  items_done integer not null default 0,
  rows_imported integer not null default 0,
  -- [{row, column, message}, ...], the first 1,000; error_count counts them all.
  errors jsonb not null default '[]',
  error_count integer not null default 0,
  last_error text,
  created_at timestamptz not null,
  finished_at timestamptz,
  primary key (account_id, upload_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);

-- One row of an uploaded file: its row number in the file (the header is row 1) and its cells.
create table upload_rows (
  account_id uuid not null,
  upload_id uuid not null,
  line integer not null,
  cells jsonb not null,
  primary key (account_id, upload_id, line),
  foreign key (account_id, upload_id) references uploads (account_id, upload_id) on delete cascade
);

-- Imports to resume when the server starts; old uploads to delete.
create index uploads_running on uploads (state) where state = 'running';
create index uploads_created on uploads (account_id, created_at);

create table upload_mappings (
  account_id uuid not null,
  data_source_id uuid not null,
  kind text not null,
  mapping jsonb not null,
  updated_at timestamptz not null,
  primary key (account_id, data_source_id, kind),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);

-- A spreadsheet source's published sheets: the CSV export address each kind is read from, and
-- how its last sync went. last_upload_id names the upload the sync made (its rows, mapping and
-- row errors); no key holds it, as uploads are deleted after 7 days.
create table spreadsheet_sheets (
  account_id uuid not null,
  data_source_id uuid not null,
  kind text not null check (kind in ('customers', 'plans', 'invoices', 'subscriptions')),
  url text not null,
  last_upload_id uuid,
  last_synced_at timestamptz,
  last_error text,
  primary key (account_id, data_source_id, kind),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade
);
