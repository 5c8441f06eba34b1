-- Every table of account data can be distributed by account on Citus, whose unique indexes and
-- primary keys must include the distribution column (docs/operations.md, "Past one machine").

-- Tokens are still found by their hash alone, now through plain indexes: uniqueness only guarded
-- against two random 192-bit secrets hashing alike, which does not happen. On Citus such a
-- lookup asks every shard.
drop index api_keys_secret_hash;
create index api_keys_secret_hash on api_keys (secret_hash);
drop index web_sessions_token_hash;
create index web_sessions_token_hash on web_sessions (token_hash);
drop index web_setup_tokens_token_hash;
create index web_setup_tokens_token_hash on web_setup_tokens (token_hash);
drop index team_members_invite_hash;
create index team_members_invite_hash on team_members (invite_hash);

-- An OAuth state is keyed by its account, and found by its hash when the callback brings it.
alter table oauth_states drop constraint oauth_states_pkey;
alter table oauth_states add primary key (account_id, state_hash);
create index oauth_states_state_hash on oauth_states (state_hash);

-- The record of re-derived customers gets a key, which moving its shards by logical replication
-- needs; a customer derived twice at one version says nothing more than once. The key's leading
-- columns are those the patch reads by, so it replaces that index.
delete from derived_changes d
using derived_changes e
where d.ctid > e.ctid and d.account_id = e.account_id and d.data_version = e.data_version
  and d.data_source_id = e.data_source_id and d.customer_id = e.customer_id;
alter table derived_changes add primary key (account_id, data_version, data_source_id, customer_id);
drop index derived_changes_by_version;
