"""What one experiment declares to the build. Each package scripts/phpcb/experiments/<name>/ exports
one `EXPERIMENT`; the registry finds them, and the site, the home page, the nav and the tests loop
over the registry. Nothing else names an experiment, and its tables are those data/schema/tables/
<name>.json declares (the first one holds its measurements)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Literal

from markupsafe import Markup

from phpcb.claims.results import Measure as ClaimMeasure
from phpcb.data.loader import Run
from phpcb.data.reference import REQUIRED, ReferenceData
from phpcb.data.schema import Measure, Schemas, TableSchema
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Answer, Evidence, claim_line, shared_caveats, spread_words
from phpcb.presentation.headlines import Headline
from phpcb.presentation.render import BETWEEN_RUNS
from phpcb.statistics.spread import UNKNOWN, RunSpread

Figures = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Inputs:
    """What an experiment's analysis and page read besides the run: its policy and the article's figures."""

    policy: Any
    reference: ReferenceData
    # The machine's spread between runs, for the run a page context is made for (UNKNOWN without a model).
    spread: RunSpread = UNKNOWN


@dataclass(frozen=True)
class Offered:
    """A table of what a stack offers (ciphers, curves): the Versions page lists what one stack's runs
    offer and the other's do not. Its rows name an item in `column`: every row is an item the stack lists,
    and its `status` says what the run found it does."""

    table: str
    column: str
    title: str


@dataclass(frozen=True)
class Finding:
    """An experiment's answer to its question, from its page's context: what to use and the number that
    decides it (escaped Markdown), the sections of the page that back it, its own caveats, and the id of
    the source article's claim it answers (the ledger's verdict is quoted). Experiment.answer adds the
    run it comes from; the page opens with that answer and the home page shows it."""

    title: str  # the home page's card title
    recommendation: Markup
    number: Markup
    evidence: tuple[Evidence, ...] = ()
    caveats: tuple[Markup, ...] = ()
    claim: str | None = None
    # The keys of the headlines (`headlines`) the answer prints, ratios and picks as well as absolute
    # numbers: the answer says beside each on how many machines × stacks it holds (presentation/holds.py).
    # None: every headline of the page.
    headlines: tuple[str, ...] | None = None


class Experiment(ABC):
    """One experiment's analysis and page. Subclasses set the class attributes and `analyse`; what the
    page module, the figures module and the measures module of the package give is delegated to them."""

    name: ClassVar[str]
    title: ClassVar[str]  # the nav label
    question: ClassVar[str]  # the home page's experiments table
    order: ClassVar[int]  # reading order on the site: nav, home page
    better: ClassVar[Literal["lower", "higher"]] = "lower"  # of the measured value (a time: lower)
    # data/reference/<name>.yaml, the source article's figures: the top-level entries it must have,
    # or None for an experiment without a source article.
    reference_required: ClassVar[tuple[str, ...] | None] = REQUIRED
    # The case-key columns whose values make a case class: cases that move together from run to run
    # (one operation at one payload, say; noise.py). Empty: the whole experiment is one class.
    shift_columns: ClassVar[tuple[str, ...]] = ()
    # The experiments whose measurements of the same run this page quotes (one quantity, one number): a
    # quoted number prints with its own experiment's spread between runs and precision, as that page does.
    quotes: ClassVar[tuple[str, ...]] = ()
    # What a stack offers, as this experiment's runs list it (the Versions page compares two stacks').
    offered: ClassVar[Offered | None] = None
    # Tokens this experiment's statements hold as values (its advice: a cipher's status in the inventory,
    # say), in words: what a pull request's comment prints instead of the token (publish/comment_words.py;
    # a verdict's status is in data/verdicts.py's words, as every page prints it).
    words: ClassVar[Mapping[str, str]] = {}
    # The package's own modules the defaults below delegate to: `figures.all_figures(analysis)`;
    # `page.finding|advice|headlines|notes(context)` where the module has them; `measures.MEASURES`.
    figures_module: ClassVar[ModuleType | None] = None
    page_module: ClassVar[ModuleType | None] = None
    measures_module: ClassVar[ModuleType | None] = None

    @property
    def template(self) -> str:
        return f"{self.name}.md.j2"

    @property
    def page(self) -> str:
        return f"experiments/{self.name}.md"

    def measurements(self, schemas: Schemas) -> TableSchema:
        declared = schemas.of_experiment(self.name)
        if not declared:
            raise ValueError(f"data/schema/tables/{self.name}.json declares no table")
        return declared[0]

    def case_key(self, schemas: Schemas) -> tuple[str, ...]:
        """The columns that name one case of the measurements table (from its primary key)."""
        return self.measurements(schemas).key

    def measured_value(self, schemas: Schemas) -> Measure:
        measure = self.measurements(schemas).measure
        if measure is None:
            raise ValueError(
                f"{self.measurements(schemas).name} declares no measure in data/schema/tables/{self.name}.json"
            )
        return measure

    def load_policy(self, path: Path) -> Any:
        """data/policy/<name>.yaml, parsed and checked; None for an experiment without one."""
        return None

    def static_context(self, inputs: Inputs) -> dict[str, Any]:
        """What the page shows even without a run (the question, the article's claim)."""
        return {}

    @abstractmethod
    def analyse(self, run: Run, inputs: Inputs) -> Any: ...

    def figures(self, analysis: Any, inputs: Inputs) -> Figures:
        return self.figures_module.all_figures(analysis) if self.figures_module is not None else {}

    def page_context(self, analysis: Any, inputs: Inputs) -> dict[str, Any]:
        """What the template needs beyond the analysis, the run and its figures."""
        return {}

    def _from_page(self, name: str, context: dict[str, Any], otherwise: Any) -> Any:
        found = getattr(self.page_module, name, None)
        return found(context) if found is not None else otherwise

    def finding(self, context: dict[str, Any]) -> Finding | None:
        """The experiment's answer, from the page's context; None when the run cannot give one."""
        return self._from_page("finding", context, None)

    def answer(self, context: dict[str, Any]) -> Answer | None:
        """What the page opens with and the home page shows (templates/_answer.md.j2): the finding, with
        the run it comes from, its profile, the spread its intervals carry and the run's caveats."""
        found = self.finding(context)
        if found is None:
            return None
        run = context["run"]
        profile = str(run.manifest["profile"])
        return Answer(
            experiment=self.name,
            title=found.title,
            page=self.page,
            recommendation=found.recommendation,
            number=found.number,
            run_id=run.run_id,
            run_anchor=context["run_anchor"],
            profile=profile,
            machine=context["machine"],
            spread=spread_words(context.get(BETWEEN_RUNS) or UNKNOWN),
            caveats=(*found.caveats, *shared_caveats(context.get("precision"), profile)),
            evidence=found.evidence,
            claim=claim_line(context, found.claim),
            headlines=(
                found.headlines if found.headlines is not None else tuple(h.key for h in self.headlines(context))
            ),
        )

    def advice(self, context: dict[str, Any]) -> list[Advice]:
        """Every recommendation, finding and verdict the page states, as comparable statements
        (what `compare` diffs between two runs); from the same context the page renders."""
        return self._from_page("advice", context, [])

    def headlines(self, context: dict[str, Any]) -> list[Headline]:
        """The numbers the Machines page sets side by side for every machine × PHP version."""
        return self._from_page("headlines", context, [])

    def notes(self, context: dict[str, Any]) -> dict[str, list[Markup]]:
        """Lines this experiment adds to other experiments' pages (escaped Markdown), by experiment
        name, from the context of the run its own page shows: e.g. a measured pitfall on the pages it
        concerns."""
        return self._from_page("notes", context, {})

    def measures(self) -> Mapping[str, ClaimMeasure]:
        """What decides the source articles' claims (data/reference/claims.yaml names them), by name."""
        return self.measures_module.MEASURES if self.measures_module is not None else {}
