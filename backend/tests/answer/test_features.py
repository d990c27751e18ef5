"""Features: lexical evidence (stop words, inflections, rare words) and what a question asks for."""

from __future__ import annotations

from bookchat.answer.features import compared, content_terms, idf_weights, overlap


def test_content_terms_drop_stop_words_and_strip_inflections() -> None:
    assert content_terms("What does merging branches do?") == {"merg", "branch"}


def test_overlap_is_the_weighted_share_of_question_terms_found() -> None:
    pool = [content_terms("git merge joins branches"), content_terms("git rebase moves commits")]
    idf = idf_weights(pool)
    question = content_terms("Does git rebase move commits?")
    assert overlap(question, pool[1], idf, unseen=1.0) == 1.0
    assert 0 < overlap(question, pool[0], idf, unseen=1.0) < 0.5


def test_question_words_absent_from_every_sentence_lower_the_overlap() -> None:
    pool = [content_terms("git merge joins branches")]
    idf = idf_weights(pool)
    assert overlap(content_terms("merge zebras"), pool[0], idf, unseen=2.0) < 0.5


def test_question_types_name_what_answer_is_wanted() -> None:
    from bookchat.answer.features import question_type

    assert question_type("How do I undo my last commit?") == "how_to"
    assert question_type("Why would I rebase instead of merge?") == "why"
    assert question_type("When did Git 2.23 add git switch?") == "when"
    assert question_type("How many loose objects trigger gc?") == "number"
    assert question_type("What is a fast-forward merge?") == "define"
    assert question_type("Who maintains Git?") == "who"


def test_a_date_answers_when_and_a_command_answers_how_to() -> None:
    import numpy as np

    from bookchat.answer.features import INDEX, Candidate, Context, feature_matrix
    from bookchat.ingest.units import split_units

    units = split_units("Git 2.23 shipped in August 2019. Run `git switch -c topic` to branch.")
    candidates = [Candidate(u, 0, i, len(units), "h", "t") for i, u in enumerate(units)]
    vectors = np.eye(len(units), 4, dtype=np.float32)
    ctx = Context("When was it released?", vectors[0], vectors, np.zeros(2), np.zeros(2), [0.5])
    rows = feature_matrix(candidates, ctx)
    assert rows[:, INDEX["when_x_year"]].tolist() == [1.0, 0.0]
    assert rows[:, INDEX["sim"]].tolist() == [1.0, 0.0]
    howto = Context(
        "How do I create a branch?", vectors[1], vectors, np.zeros(2), np.zeros(2), [0.5]
    )
    assert feature_matrix(candidates, howto)[:, INDEX["howto_x_code"]].tolist() == [0.0, 1.0]


def test_a_question_asking_for_three_things_meets_a_list_or_sentence_of_three() -> None:
    import numpy as np

    from bookchat.answer.features import INDEX, Candidate, Context, asked_count, feature_matrix
    from bookchat.ingest.units import split_units

    assert asked_count("What are the three formats launch files can be written in?") == 3
    assert asked_count("What are the 2 kinds of tags?") == 2
    assert asked_count("How many nodes can a launch file start?") == 0
    units = split_units(
        "Launch files start many nodes at once.\n\n"
        "They can be written in Python, XML, and YAML.\n\n"
        "An action has these components:\n\n- **Goal**: what to do\n"
        "- **Feedback**: progress so far\n- **Result**: the final outcome"
    )
    candidates = [Candidate(u, 0, i, len(units), "h", "t") for i, u in enumerate(units)]
    vectors = np.eye(len(units), 8, dtype=np.float32)
    ctx = Context(
        "What are the three formats or components?",
        vectors[0],
        vectors,
        np.zeros(len(units)),
        np.zeros(len(units)),
        [0.5],
    )
    matches = feature_matrix(candidates, ctx)[:, INDEX["count_match"]].tolist()
    assert matches == [0.0, 1.0, 0.0, 1.0, 1.0, 1.0]  # the lead-in itself lists nothing


def test_a_comparison_question_names_the_things_it_compares() -> None:
    assert compared("What's the difference between git fetch and git pull?") == (
        "git fetch",
        "git pull",
    )
    # A side that extends the other keeps the words that tell the two apart.
    assert compared("What's the difference between git diff and git diff --staged?") == (
        "git diff",
        "git diff --staged",
    )
    assert compared("What is the difference between a node and a topic in ROS 2?") == (
        "node",
        "topic",
    )
    assert compared("What's the difference between the working tree, the index and the repo?") == (
        "working tree",
        "index",
        "repo",
    )
    assert compared("What's the difference between the pre-receive and update hooks?") == (
        "pre-receive",
        "update",
    )
    assert compared("When should I use merge vs. rebase?")[-1] == "rebase"
    assert compared("How do I undo my last commit?") == ()


def test_a_question_asks_for_a_list_only_when_it_asks_what_the_n_things_are() -> None:
    from bookchat.answer.features import asked_list

    assert asked_list("What are the three components of an action in ROS 2?") == 3
    assert asked_list("Name two kinds of tags.") == 2
    assert asked_list("Which were the 4 founding states?") == 4
    # A count that is not the list asked for.
    assert asked_list("How do I combine my last three commits into one?") == 0
    assert asked_list("What happened three days later?") == 0
