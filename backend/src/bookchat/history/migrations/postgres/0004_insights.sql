-- What the authors' insights page counts, kept so that counting a month of questions reads
-- indexes, not every row: the edition a question was answered from (docs version and locale),
-- whether the answer cache served it, the chapter its answer cites first, and each message's
-- cited sections as rows. Messages stored before this migration keep a null edition and cache
-- flag; their cited chapter and sections are filled in from their citations here.
ALTER TABLE messages ADD COLUMN version text;
ALTER TABLE messages ADD COLUMN locale text;
ALTER TABLE messages ADD COLUMN cached boolean;
ALTER TABLE messages ADD COLUMN cited_chapter text;
UPDATE messages SET cited_chapter = citations -> 0 ->> 'chapter';

CREATE TABLE citations (
    message_id text NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    version text,
    locale text,
    url text NOT NULL,
    section text NOT NULL,
    chapter_title text NOT NULL,
    PRIMARY KEY (message_id, url)
);
INSERT INTO citations (message_id, created_at, url, section, chapter_title)
    SELECT m.id, m.created_at, c.value ->> 'url',
        COALESCE(max(c.value ->> 'section'), ''), COALESCE(max(c.value ->> 'chapter_title'), '')
    FROM messages m CROSS JOIN LATERAL jsonb_array_elements(m.citations) AS c(value)
    WHERE COALESCE(c.value ->> 'url', '') <> ''
    GROUP BY m.id, m.created_at, c.value ->> 'url';

-- Covering indexes: a period's counts, its most-cited sections and the questions its ratings
-- belong to are read from these alone (index-only scans).
CREATE INDEX messages_for_insights ON messages (created_at, version, locale)
    INCLUDE (status, chapter, cited_chapter, latency_ms, cached, id);
CREATE INDEX messages_rated_for_insights ON messages (id)
    INCLUDE (created_at, version, locale, chapter, cited_chapter);
CREATE INDEX citations_for_insights ON citations (created_at, version, locale, url)
    INCLUDE (section, chapter_title);
