-- Revenue events told to people and systems (docs/notifications.md). Each event is recorded
-- once per account and key, and published until its channels have taken it (told_at).
create table revenue_events (
  account_id uuid not null references accounts (account_id) on delete cascade,
  event_key text not null,
  data_source_id uuid not null,
  kind text not null,
  -- The event's day, YYYY-MM-DD.
  occurred_on date not null,
  event jsonb not null,
  -- False for an event recorded without being told: history of an import, or too old.
  published boolean not null,
  detected_at timestamptz not null,
  -- Set once every channel has queued the event's deliveries; a published event without it is
  -- published again by the next detection (the deliveries are keyed, so nothing is sent twice).
  told_at timestamptz,
  primary key (account_id, event_key),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id)
    on delete cascade
);
-- Each detection reads the account's events still to tell; recorded history grows for years,
-- the untold ones stay a handful.
create index revenue_events_untold on revenue_events (account_id, occurred_on, event_key)
  where published and told_at is null;

-- The day detection first saw each data source, by the service's clock: events up to that day
-- are the source's history, recorded but not published.
create table notification_sources (
  account_id uuid not null,
  data_source_id uuid not null,
  watched_since date not null,
  primary key (account_id, data_source_id),
  foreign key (account_id, data_source_id) references data_sources (account_id, data_source_id)
    on delete cascade
);

-- Messages sent once (a digest per period, an alert per crossing), claimed before sending.
create table notification_sends (
  account_id uuid not null references accounts (account_id) on delete cascade,
  send_key text not null,
  sent_at timestamptz not null,
  primary key (account_id, send_key)
);

-- The data version detection last ran on, so a sweep finds the accounts written since.
create table notification_state (
  account_id uuid primary key references accounts (account_id) on delete cascade,
  detected_version bigint not null
);
