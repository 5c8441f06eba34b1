-- The periodic catch-up from a billing system's change feed, and Stripe Connect sign-in.
--
-- change_cursor: where the change feed was read up to (taken when the import started, then
-- moved by each catch-up in the same transaction as its last write); caught_up_at: when the
-- last catch-up of the source ended without error.
alter table connector_imports
  add column change_cursor text,
  add column caught_up_at timestamptz;

-- The `state` of an OAuth authorization under way: only its sha-256 is kept, with the account,
-- data source and web session it was issued to. Used once (deleted when the callback takes it),
-- and refused after expires_at. Signing out deletes the session's states with it.
create table oauth_states (
  state_hash text primary key,
  account_id uuid not null,
  data_source_id uuid not null,
  session_id uuid not null,
  expires_at timestamptz not null,
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id) on delete cascade,
  foreign key (account_id, session_id) references web_sessions (account_id, session_id) on delete cascade
);
