-- Arrivals in bulk: a day of fifty tables is over a million journal rows and as many derived
-- ones, so every per-row cost on the big tables counts.

-- Rows reach these tables only through an arrival, which locks (or first creates) the
-- table's line in floor_table in the same transaction: a foreign key checked row by row adds
-- nothing to that, and cost a fifth of a day's load.
ALTER TABLE journal_row DROP CONSTRAINT journal_row_table_id_fkey;
ALTER TABLE coup DROP CONSTRAINT coup_table_id_fkey;
ALTER TABLE card DROP CONSTRAINT card_table_id_fkey;
ALTER TABLE settlement DROP CONSTRAINT settlement_table_id_fkey;
ALTER TABLE correction DROP CONSTRAINT correction_table_id_fkey;

-- Indexes no query of the page uses: each was one more insertion per row.
DROP INDEX coup_by_time;
DROP INDEX card_by_table_shoe;
DROP INDEX settlement_by_time;
