-- Conversations, their messages and one rating per message.
-- Times are UTC ISO-8601 text with microseconds (fixed width, so text order is time order).

CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);

CREATE TABLE messages (
    -- seq orders messages within a conversation even when two share a timestamp.
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    question TEXT NOT NULL,
    mode TEXT NOT NULL,
    chapter TEXT,
    selection TEXT,
    selection_truncated INTEGER NOT NULL DEFAULT 0,
    answer TEXT NOT NULL,
    status TEXT NOT NULL,
    citations TEXT NOT NULL DEFAULT '[]',
    generator TEXT NOT NULL,
    latency_ms REAL,
    corpus_version TEXT
);

CREATE INDEX messages_by_conversation ON messages (conversation_id, seq);
CREATE INDEX messages_by_time ON messages (created_at);

CREATE TABLE ratings (
    message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
    comment TEXT,
    rated_at TEXT NOT NULL
);
