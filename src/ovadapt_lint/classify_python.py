"""The classify stage for Python: what a module publishes, recognised once, before any check runs.

``classify_module`` makes a ``Publication``: the projections a module builds (the spans of published values,
why each projection value is published, the projection types), the places values enter them (flow sinks, the
fields the field rules read) and the contract objects the module builds, evaluated but not judged. It reports
nothing: the checks of the catalog read it (``checks/python_contracts.py`` for contract values,
``checks/python_fields.py`` for raw fields, ``checks/python_flows.py`` for flows, ``checks/python_strings.py``
for the literals inside ``spans``). The recognition itself lives in ``checks/python_projections.py``; the
roles of files (``public``, ``source``, ``test``) in ``classify.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from .findings import Span

if TYPE_CHECKING:
    from .checks.python_contracts import ContractObjects
    from .checks.python_projections import ProjectionField
    from .frontends.python_text import PythonText

_EMPTY: Mapping = MappingProxyType({})


def _empty() -> Mapping:
    return _EMPTY


@dataclass(frozen=True)
class Publication:
    """What one Python module publishes. Node ids (``id(node)``) refer to the module's parsed tree, which
    lives as long as the file's checks."""

    # Spans of published values: the literals inside are judged as content.
    spans: tuple[Span, ...] = ()
    # id(scope root: a function or the module) -> [(key, value node, why it is published)]: flow sinks
    flow_sinks: Mapping[int, list] = field(default_factory=_empty)
    # id(projection dict display or call) -> why it is published
    projection_values: Mapping[int, str] = field(default_factory=_empty)
    # class name -> why its instances are published (projection types of this module)
    projection_types: Mapping[str, str] = field(default_factory=_empty)
    # keyed values of projections and fields of model classes, in order, for the field rules
    fields: tuple[ProjectionField, ...] = ()
    # the contract objects the module builds, recognised and evaluated; judged by the contract check
    contracts: ContractObjects | None = None
    # sibling modules read for constants and helpers: the module's findings depend on them
    contract_sources: tuple[str, ...] = ()
    # why a dict with a given schema_version is a projection (or None); None: the module publishes nothing
    # by the literal prefilter, and the recognition did not run
    recognise: Callable[[str], str | None] | None = None
    # (dotted name, is a package) of the module (``flow.modnames.module_name``) and its top-level imports under
    # that name, when the recognition ran (None: not worked out): once for the contract evaluation and the flow
    # facts alike
    module_name: tuple[str, bool] | None = None
    imports: Mapping[str, str] | None = None

    def release(self) -> None:
        """Drop the contract evaluation's deferred values (cycles that would keep the tree alive)."""
        if self.contracts is not None:
            self.contracts.release()


def classify_module(module: PythonText, analysis) -> Publication:
    """The ``Publication`` of a parsed Python module; ``analysis``: the configuration's analysis.Analysis (its
    rule pack and Python vocabulary). A module that cannot publish (a cheap literal prefilter) gets an empty
    one."""
    from .checks.python_contracts import remember_module
    from .checks.python_projections import ScopeAnalyzer, may_publish, might_hold_projections
    from .flow.modnames import imports_of, module_name

    # A module linted later may read this one as a sibling (checks/python_contracts.py).
    remember_module(str(module.source.path), module.source.data, module.tree)
    vocab, pack = analysis.python, analysis.pack
    # The audit's name-based pre-check, or else (and always outside it) the literal prefilter: the audit sees at
    # least what the default and outputs settings see.
    if not (
        (vocab.audit and might_hold_projections(module.tree, vocab))
        or may_publish(module.text, vocab, pack.section_words, pack.contracts)
    ):
        return Publication()
    try:
        named: tuple[str, bool] | None = module_name(module.source.path, analysis.packages)
    except (OSError, ValueError):
        named = None
    imports = imports_of(module.tree, *named) if named is not None else None
    analyzer = ScopeAnalyzer(module, vocab, pack, named, imports)
    analyzer.run()
    return Publication(
        spans=tuple(analyzer.published),
        flow_sinks=MappingProxyType(analyzer.flow_sinks),
        projection_values=MappingProxyType(analyzer.projection_values),
        projection_types=MappingProxyType(analyzer.projection_types),
        fields=tuple(analyzer.fields),
        contracts=analyzer.contract_objects,
        contract_sources=analyzer.contract_objects.sources,
        recognise=analyzer.recognise_version,
        module_name=named,
        imports=imports,
    )
