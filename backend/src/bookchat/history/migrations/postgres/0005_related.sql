-- The places in the book shown beside an answer or instead of one (QueryResponse.related), so a
-- reloaded conversation shows them again and a follow-up can name one; [] for earlier messages.
ALTER TABLE messages ADD COLUMN related jsonb NOT NULL DEFAULT '[]'::jsonb;
