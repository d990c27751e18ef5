-- The reader's predicted answer span ("Git 2.23 or newer"), so a reloaded conversation shows it
-- again; null for a passage, an abstention, a generated answer and every earlier message.
ALTER TABLE messages ADD COLUMN short_answer TEXT;
