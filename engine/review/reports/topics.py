"""The gaps of every questionnaire of a workspace grouped by topic (#51): what to write once so
that the next questionnaire goes faster.

The gap rows' questions are clustered on their TF-IDF vectors (the knowledge base's analyzer:
lower-cased, English stop words out, Snowball-stemmed; l2 rows) by agglomerative clustering
(SciPy's hierarchy), average linkage on the cosine distance, cut at :data:`TOPIC_DISTANCE`: two
groups of questions merge while their questions are, on average, closer than that. A topic is named by its
:data:`NAME_TERMS` key terms: the stems weighing most in the mean of its rows' vectors (the
questionnaires' own words, such as "vendor" or "describe", left out), each written as the word
its questions use most. Topics are ranked by how many gap rows fall in them across all the
questionnaires, then by name. A question whose words are all stop words is a topic of its own.

Each topic offers a library entry to write (:meth:`Topic.entry`): the question closest to the
topic's centre, and the answers the reviewers accepted for its rows (edited, or accepted once an
expert answered), most common choice first."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.index.embed.sparse import analyzer
from engine.index.library import choice_key
from engine.review.reports.rows import Outcome, ReportRow

TOPIC_DISTANCE = 0.75  # average-linkage cosine distance at which topics stop merging (docs/reports.md)
NAME_TERMS = 3
# the questionnaires' own words: in most questions, they name no topic
_FILLER = (
    "vendor vendors institution institutions describe description provide provided product products solution "
    "solutions service services please company organization does use used using ensure able include including "
    "yes list explain detail details available applicable question answer system systems"
)


@dataclass(frozen=True)
class EntryDraft:
    """A library entry to write for a topic, prefilled: its question, the most common accepted
    choice, and the accepted answers (each once, most common first) for the writer to merge."""

    question: str
    choice: str | None
    answer: str
    sources: tuple[str, ...]  # the rows the answers come from ("Canvas HECVAT DATA-01")


@dataclass(frozen=True)
class Topic:
    """Gap rows of one topic, of every questionnaire of the workspace."""

    name: str
    rows: tuple[ReportRow, ...]
    central: int  # the index in ``rows`` of the question closest to the topic's centre

    def of(self, project_id: int) -> list[ReportRow]:
        return [r for r in self.rows if r.project_id == project_id]

    @property
    def questionnaires(self) -> list[str]:
        return list(dict.fromkeys(r.questionnaire for r in self.rows))

    def reasons(self) -> Counter:
        """How many of its rows are a gap for each reason (a row may have several)."""
        return Counter(g for r in self.rows for g in r.gaps)

    def entry(self) -> EntryDraft:
        answered = [r for r in self.rows if r.outcome in (Outcome.ACCEPTED, Outcome.EDITED) and (r.answer or r.choice)]
        choices = Counter(choice_key(r.choice) for r in answered if choice_key(r.choice))
        top = choices.most_common(1)[0][0] if choices else None
        choice = next((r.choice for r in answered if top and choice_key(r.choice) == top), None)
        texts = Counter(" ".join(r.answer.split()) for r in answered if r.answer.strip())
        answer = "\n\n".join(t for t, _ in texts.most_common())
        sources = tuple(f"{r.questionnaire} {r.label}" for r in answered)
        return EntryDraft(self.rows[self.central].question, choice, answer, sources)


def gap_topics(rows: Sequence[ReportRow], distance: float = TOPIC_DISTANCE) -> list[Topic]:
    """The gap rows among ``rows`` (those with a :class:`Gap`) grouped by topic, ranked (see the
    module docstring)."""
    gaps = [r for r in rows if r.gaps]
    if not gaps:
        return []
    vectors, terms = _vectors([r.question for r in gaps])
    labels = _clusters(vectors, distance)
    topics = []
    for label in sorted(set(labels)):
        members = [i for i, x in enumerate(labels) if x == label]
        topics.append(_topic([gaps[i] for i in members], vectors[members], terms))
    return sorted(topics, key=lambda t: (-len(t.rows), t.name.casefold()))


def _vectors(texts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """l2-normalised TF-IDF rows of ``texts`` (dense: a workspace's gaps are hundreds of rows) and the stems."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=analyzer(), dtype=np.float32)
    try:
        matrix = vectorizer.fit_transform(texts).toarray()
    except ValueError:  # no word but stop words in any of them
        return np.zeros((len(texts), 0), dtype=np.float32), []
    return matrix, list(vectorizer.get_feature_names_out())


def _clusters(vectors: np.ndarray, distance: float) -> list[int]:
    """A cluster label per row: agglomerative, average linkage, cosine distance cut at ``distance``
    (SciPy's hierarchy); a row without terms alone in its own."""
    n = len(vectors)
    has_terms = vectors.any(axis=1) if vectors.shape[1] else np.zeros(n, dtype=bool)
    full = [i for i in range(n) if has_terms[i]]
    labels = [0] * n
    if len(full) > 1:
        from scipy.cluster.hierarchy import fcluster, linkage
        from scipy.spatial.distance import pdist

        tree = linkage(pdist(vectors[full], metric="cosine"), method="average")
        for i, label in zip(full, fcluster(tree, t=distance, criterion="distance")):
            labels[i] = int(label)
    top = max((labels[i] for i in full), default=0) + 1
    for k, i in enumerate(i for i in range(n) if not has_terms[i]):
        labels[i] = top + k
    return labels


def _topic(rows: list[ReportRow], vectors: np.ndarray, terms: list[str]) -> Topic:
    centre = vectors.mean(axis=0) if len(vectors) and vectors.shape[1] else np.zeros(0)
    central = int(np.argmax(vectors @ centre)) if centre.any() else 0
    return Topic(_name(rows, centre, terms), tuple(rows), central)


def _name(rows: list[ReportRow], centre: np.ndarray, terms: list[str]) -> str:
    """The key terms of a topic, each as the word its questions use most for that stem."""
    stems = analyzer()
    filler = {stems.stem(w) for w in _FILLER.split()}
    words: dict[str, Counter] = {}
    for r in rows:
        for word in stems.words(r.question):
            words.setdefault(stems.stem(word), Counter())[word] += 1
    order = np.argsort(-centre, kind="stable") if centre.size else []
    named = [terms[i] for i in order if centre[i] > 0 and terms[i] not in filler][:NAME_TERMS]
    if not named:  # only filler words (or none): the first words of its question
        return " ".join(rows[0].question.split()[:6]) or "(no words)"
    return " · ".join(words[t].most_common(1)[0][0] if t in words else t for t in named)
