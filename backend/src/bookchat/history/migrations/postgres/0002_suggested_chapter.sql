-- The chapter that covers a question asked of another chapter, so a reloaded conversation can
-- still point readers to it.
ALTER TABLE messages ADD COLUMN suggested_chapter jsonb;
