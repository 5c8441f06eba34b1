-- Outbound webhooks: an account's subscriptions, one URL per event type, and the log of what was
-- delivered to them. The signing secret is kept as is: the server must sign with it, and it only
-- lets its holder forge deliveries to that one receiver.

create table webhooks (
  account_id uuid not null references accounts (account_id) on delete cascade,
  webhook_id uuid not null,
  url text not null,
  event_type text not null,
  secret text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, webhook_id),
  unique (account_id, url, event_type)
);

-- One event to one webhook. The event key is unique per webhook, so an event noticed twice is
-- delivered once, however long after (the job queue forgets its keys after some weeks).
create table webhook_deliveries (
  account_id uuid not null,
  webhook_id uuid not null,
  delivery_id uuid not null,
  event_key text not null,
  event_type text not null,
  -- pending (not yet tried or to be retried), delivered, or dead (every attempt failed)
  status text not null default 'pending',
  attempts integer not null default 0,
  last_status integer,
  last_response text,
  last_error text,
  last_attempt_at timestamptz,
  -- The earliest time of the next attempt (the queue adds up to as much again at random).
  next_attempt_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (account_id, webhook_id, delivery_id),
  unique (account_id, webhook_id, event_key),
  foreign key (account_id, webhook_id) references webhooks (account_id, webhook_id) on delete cascade
);
create index webhook_deliveries_recent on webhook_deliveries (account_id, webhook_id, created_at desc);

-- Each attempt of a delivery, answered or not.
create table webhook_attempts (
  account_id uuid not null,
  webhook_id uuid not null,
  delivery_id uuid not null,
  attempt integer not null,
  attempted_at timestamptz not null,
  status integer,
  error text,
  duration_ms integer not null,
  primary key (account_id, webhook_id, delivery_id, attempt),
  foreign key (account_id, webhook_id, delivery_id)
    references webhook_deliveries (account_id, webhook_id, delivery_id) on delete cascade
);
