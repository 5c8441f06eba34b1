-- The cashflow table's read on the embedded store no longer pages through invoices_page: each
-- page is one COPY that merges the invoices with their transactions along both primary keys,
-- starting both walks at the page's first key (docs/decisions.md, "Cashflow table").
drop function if exists invoices_page(uuid, uuid, text, integer);
