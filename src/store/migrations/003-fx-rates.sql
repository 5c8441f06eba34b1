-- ECB reference rates loaded after install (`mrrlytics fx load`); the shipped history is read
-- from assets/fx at start and never copied here, so a fresh store needs no big insert.
-- Global reference data shared by every account, so the key does not start with account_id
-- (the one exception; see docs/decisions.md). Units of `currency` per euro on `day`.
create table fx_rates (
  currency text not null check (currency ~ '^[a-z]{3}$' and currency <> 'eur'),
  day date not null,
  per_eur double precision not null check (per_eur > 0),
  -- Moves whenever a rate is added or changed: with the row count, the version services cache by.
  loaded_at timestamptz not null default now(),
  primary key (currency, day)
);
