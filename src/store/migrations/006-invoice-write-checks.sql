-- Each foreign key costs a look-up per written row, and bulk imports write every invoice,
-- line and transaction through these. The direct keys to accounts are implied by the chains
-- that remain (line or transaction -> invoice -> customer -> account, subscription ->
-- customer -> account), which also cascade an account's deletion to them.
alter table invoices drop constraint invoices_account_id_fkey;
alter table invoice_lines drop constraint invoice_lines_account_id_fkey;
alter table invoice_transactions drop constraint invoice_transactions_account_id_fkey;
alter table subscriptions drop constraint subscriptions_account_id_fkey;
