"""Each answer's lines on how many machines × stacks its headlines hold (presentation/holds.py): the
headlines of the run a page shows, set against the Machines page's rows for the same keys (one row per
machine × stack, the run the site would show for it), so that the answer and the Machines page speak of
the same runs."""

from __future__ import annotations

import dataclasses
from typing import Any

from phpcb.data.loader import Run
from phpcb.experiments.experiment import Experiment
from phpcb.pages.machines_page import Question
from phpcb.presentation import holds
from phpcb.presentation.answer import Answer


def with_holds(
    answer: Answer, experiment: Experiment, context: dict[str, Any], run: Run, questions: list[Question]
) -> Answer:
    """The answer with a line beside each headline it prints: the reference is `run`'s own headline (the
    page's context), the others the Machines page's rows of every other machine × stack."""
    by_key = {question.key: question for question in questions}
    own = {headline.key: headline for headline in experiment.headlines(context)}
    lines = []
    for key in answer.headlines:
        headline = own.get(key)
        if headline is None:
            continue
        reference = holds.Pair.of(run.manifest, headline)
        rows = by_key[key].rows if key in by_key else []
        others = [holds.Pair.of(row.run.manifest, row.headline) for row in rows]
        lines.append(holds.sentence(holds.across(reference, others)))
    return dataclasses.replace(answer, holds=tuple(lines))
