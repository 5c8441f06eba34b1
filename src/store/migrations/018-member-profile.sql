-- What `/profile` shows and changes beside the member's display name. Null until set; the
-- first and last name then fall back to the display name split at its first space.
alter table team_members
  add column first_name text,
  add column last_name text,
  add column locale text,
  add column time_zone text;
