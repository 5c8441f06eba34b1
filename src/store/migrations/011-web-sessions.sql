-- Sign-in to the web interface: sessions of team members, the one-time owner setup token of an
-- account and the one-time invitation of a member. Only sha-256 hashes of the secrets are kept:
-- each secret has 192 random bits, so the hash cannot be brute-forced and a leaked table signs
-- nobody in.

create table web_sessions (
  account_id uuid not null,
  session_id uuid not null,
  member_id uuid not null,
  token_hash text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (account_id, session_id),
  -- A removed member's sessions go with them.
  foreign key (account_id, member_id) references team_members (account_id, member_id) on delete cascade
);
-- A request names its session by the cookie before it knows the account.
create unique index web_sessions_token_hash on web_sessions (token_hash);

create table web_setup_tokens (
  account_id uuid primary key references accounts (account_id) on delete cascade,
  token_hash text not null,
  expires_at timestamptz not null
);
create unique index web_setup_tokens_token_hash on web_setup_tokens (token_hash);

alter table team_members
  add column invite_hash text,
  add column invite_expires_at timestamptz;
create unique index team_members_invite_hash on team_members (invite_hash);
