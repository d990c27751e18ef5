-- Conversations, their messages and one rating per message.

CREATE TABLE conversations (
    id text PRIMARY KEY,
    created_at timestamptz NOT NULL
);

CREATE TABLE messages (
    -- seq orders messages within a conversation even when two share a timestamp.
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    question text NOT NULL,
    mode text NOT NULL,
    chapter text,
    selection text,
    selection_truncated boolean NOT NULL DEFAULT false,
    answer text NOT NULL,
    status text NOT NULL,
    citations jsonb NOT NULL DEFAULT '[]'::jsonb,
    generator text NOT NULL,
    latency_ms double precision,
    corpus_version text
);

CREATE INDEX messages_by_conversation ON messages (conversation_id, seq);
CREATE INDEX messages_by_time ON messages (created_at);

CREATE TABLE ratings (
    message_id text PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    rating text NOT NULL CHECK (rating IN ('up', 'down')),
    comment text,
    rated_at timestamptz NOT NULL
);
