-- What the authors' insights page filters and counts by: the edition a question was answered
-- from (docs version and locale) and whether the answer cache served it. Messages stored before
-- this migration read back null for all three (the page counts them under "unknown").
ALTER TABLE messages ADD COLUMN version TEXT;
ALTER TABLE messages ADD COLUMN locale TEXT;
ALTER TABLE messages ADD COLUMN cached INTEGER;
