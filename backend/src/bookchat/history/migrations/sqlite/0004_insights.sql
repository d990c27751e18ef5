-- What the authors' insights page counts, kept so that counting a month of questions reads
-- indexes, not every row: the edition a question was answered from (docs version and locale),
-- whether the answer cache served it, the chapter its answer cites first, and each message's
-- cited sections as rows. Messages stored before this migration keep a null edition and cache
-- flag; their cited chapter and sections are filled in from their citations here.
ALTER TABLE messages ADD COLUMN version TEXT;
ALTER TABLE messages ADD COLUMN locale TEXT;
ALTER TABLE messages ADD COLUMN cached INTEGER;
ALTER TABLE messages ADD COLUMN cited_chapter TEXT;
UPDATE messages SET cited_chapter = json_extract(citations, '$[0].chapter');

CREATE TABLE citations (
    message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    version TEXT,
    locale TEXT,
    url TEXT NOT NULL,
    section TEXT NOT NULL,
    chapter_title TEXT NOT NULL,
    PRIMARY KEY (message_id, url)
);
INSERT INTO citations (message_id, created_at, url, section, chapter_title)
    SELECT m.id, m.created_at, json_extract(c.value, '$.url'),
        COALESCE(max(json_extract(c.value, '$.section')), ''),
        COALESCE(max(json_extract(c.value, '$.chapter_title')), '')
    FROM messages m, json_each(m.citations) AS c
    WHERE COALESCE(json_extract(c.value, '$.url'), '') <> ''
    GROUP BY m.id, json_extract(c.value, '$.url');

-- Covering indexes: a period's counts, its most-cited sections and the questions its ratings
-- belong to are read from these alone.
CREATE INDEX messages_for_insights
    ON messages (created_at, version, locale, status, chapter, cited_chapter, latency_ms, cached);
CREATE INDEX messages_rated_for_insights
    ON messages (id, created_at, version, locale, chapter, cited_chapter);
CREATE INDEX citations_for_insights
    ON citations (created_at, version, locale, url, section, chapter_title);
