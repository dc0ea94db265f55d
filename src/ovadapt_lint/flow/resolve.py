"""Joins the flow facts of a run's modules over their imports and reports every source that reaches a
published sink.

Per function, two summaries are computed on demand and memoised (recursion cut at the cycle, as
widening): what its result carries (sources, and which parameters reach it) and which parameters
reach a sink (``param_sinks``). A call's result is the callee's summary with the caller's arguments put
in for its parameters; an argument that reaches a parameter sink is published. A finding is reported
where the value was put under its published key, and carries the whole trace, across modules.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from ..findings import Finding, FlowStep, Span, make_finding
from .build import STOPS, compact_name
from .facts import (
    EMPTY,
    MAX_TRACE,
    TAKEN,
    CallSite,
    FixtureShapes,
    FunctionFacts,
    ModuleFacts,
    Taint,
    add,
    clip,
    full,
    identity,
    room,
    store,
    taken,
    union,
)
from .models import FlowModels

# Sources that often compute a compact value (a commit id from `git rev-parse`, a count read from a file):
# under an id, count or digest key they are taken to be that value. A path or URI under `*_ref` is not.
_COMPUTED = frozenset({"process-output", "file-content", "response-body"})
MAX_DEPTH = (
    24  # nested call resolutions per query: deeper chains are cut, as Pysa caps trace length
)


@dataclass(frozen=True)
class ParamSink:
    param: int | str
    reason: str
    key: str | None
    where: tuple  # (file, line, col, end line, end col) of the published value
    trace: tuple  # steps from the parameter to the sink
    path: tuple = ()  # where the parameter's material sits in the published value (TAKEN: a part of it)
    tag: str = (
        "p"  # "k": the field of a record named by this parameter's literal key reaches the sink
    )


@dataclass(frozen=True)
class FlowHit:
    code: str
    kind: str
    where: tuple  # (file, line, col, end line, end col)
    key: str | None
    reason: str
    trace: tuple
    sources: frozenset = frozenset()  # every source location that reaches this published value


class Program:
    def __init__(self, modules: list, models: FlowModels) -> None:
        self.models = models
        self.modules: dict[str, ModuleFacts] = {}
        self.shapes: list[
            tuple[frozenset[str], str]
        ] = []  # (an object's keys, the public fixture it is in)
        for shapes in [m for m in modules if isinstance(m, FixtureShapes)]:
            self.shapes += [(frozenset(s), shapes.display) for s in shapes.shapes]
        modules = [m for m in modules if isinstance(m, ModuleFacts)]
        self.functions: dict[str, tuple[ModuleFacts, FunctionFacts]] = {}
        self.classes: dict[str, tuple[ModuleFacts, Any]] = {}
        for module in modules:
            self.modules.setdefault(module.name, module)
            for qualname, facts in module.functions.items():
                self.functions.setdefault(qualname, (module, facts))
            for qualname, facts in module.classes.items():
                self.classes.setdefault(qualname, (module, facts))
        self._returns: dict[str, Taint | None] = {}
        self._param_sinks: dict[str, list[ParamSink] | None] = {}
        self._globals: dict[str, Taint | None] = {}
        self._found: dict[str, str | None] = {}
        self._calls: dict[tuple[int, int], Taint | None] = {}
        self._reached_by: dict[int, list[tuple]] = {}
        self._resolved: dict[tuple[int, int], Taint] = {}
        self._caught: dict[tuple[int, int], Taint | None] = {}
        self._raises: dict[tuple[str, tuple[str, ...]], tuple[bool, Taint] | None] = {}

    # --- names -----------------------------------------------------------------
    def find(self, qualname: str, depth: int = 0) -> str | None:
        """The function or class ``qualname`` names, following re-exports (``pkg/__init__`` importing it)."""
        if qualname in self._found:
            return self._found[qualname]
        found = None
        if qualname in self.functions or qualname in self.classes:
            found = qualname
        elif depth < 8:
            parts = qualname.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module = self.modules.get(".".join(parts[:cut]))
                if module is not None:
                    target = module.imports.get(parts[cut])
                    if target is not None and target != qualname:
                        found = self.find(".".join([target, *parts[cut + 1 :]]), depth + 1)
                    break
        self._found[qualname] = found
        return found

    # --- summaries ---------------------------------------------------------------
    def returns(self, qualname: str) -> Taint:
        if qualname in self._returns:
            return self._returns[qualname] or EMPTY
        self._returns[qualname] = None  # in progress: a recursive call sees nothing more
        facts = self.functions[qualname][1]
        result = self.resolve(facts, facts.returns, 0)
        self._returns[qualname] = result
        return result

    def glob(self, qualname: str) -> Taint:
        if qualname in self._globals:
            return self._globals[qualname] or EMPTY
        self._globals[qualname] = None
        result: Taint = EMPTY
        module_name, _, name = qualname.rpartition(".")
        module = self.modules.get(module_name)
        if module is not None and name in module.globals:
            owner = module.functions.get(f"{module.name}.<module>") or FunctionFacts(
                f"{module.name}.<module>", []
            )
            result = {
                k: a for k, a in self.resolve(owner, module.globals[name], 0).items() if a[0] == "s"
            }
        elif module is not None and name in module.imports:
            result = self.glob(module.imports[name])
        self._globals[qualname] = result
        return result

    def resolve(self, function: FunctionFacts, taint: Taint, depth: int) -> Taint:
        """``taint`` with call and global atoms replaced by what they carry: sources and parameters only."""
        if not taint:
            return EMPTY
        if (
            depth == 0
        ):  # the facts' own taints are asked for again and again (by every caller's sinks)
            key = (id(function), id(taint))
            if key not in self._resolved:
                self._resolved[key] = self._resolve(function, taint, 0)
            return self._resolved[key]
        return self._resolve(function, taint, depth)

    def _resolve(self, function: FunctionFacts, taint: Taint, depth: int) -> Taint:
        out: Taint = {}
        for atom in taint.values():
            tag = atom[0]
            if tag in _KEPT:
                _add(out, atom)
                continue
            if depth >= MAX_DEPTH:
                continue
            if tag == "c":
                carried = self.call_of(function, atom[1], depth)
            elif tag == "x":
                carried = self.caught(function, atom[1], depth)
            else:
                carried = self.glob(atom[1])
            if not room(out, carried):
                continue  # `_after` keeps each atom's tag: none of them would be kept
            for inner in _after(carried, atom).values():
                _add(out, inner)
        return out

    def call_of(self, function: FunctionFacts, index: int, depth: int) -> Taint:
        """What call number ``index`` of ``function`` returns, resolved once (calls chain through their
        arguments: ``x = f(x)`` repeated would otherwise be followed once per path)."""
        key = (id(function), index)
        if key in self._calls:
            return self._calls[key] or EMPTY
        if index >= len(function.calls):
            return EMPTY
        self._calls[key] = None
        result = self.call_result(function, function.calls[index], depth + 1)
        self._calls[key] = result
        return result

    def call_result(self, function: FunctionFacts, site: CallSite, depth: int) -> Taint:
        if site.callee.startswith(STOPS):
            return self.stopped(function, site, depth)
        target = self.find(site.callee)
        if target is None or site.stores:
            return EMPTY
        if target in self.classes:
            return self.constructed(function, site, target, depth)
        out: Taint = {}
        callee = self.functions[target][1]
        # The callee's result names a parameter once per path it is stored or read under: each argument is
        # resolved once for all of them.
        arguments: dict[Any, Taint] = {}
        for atom in self.returns(target).values():
            if atom[0] in ("s", "f"):
                if not full(out, atom[0]):
                    _add(out, atom[:3] + (_joined(atom[3], (site.step,)), atom[4]))
                continue
            param = _ref(atom[1])[0]
            argument = arguments.get(param)
            if argument is None:
                argument = arguments[param] = self.resolve(
                    function, _argument(site, param, callee), depth
                )
            if atom[0] == "k":
                carried = self.keyed(argument, atom)
            elif not room(out, argument):
                continue  # `_after` keeps each atom's tag: none of them would be kept
            else:
                carried = _after(argument, atom, self.models)
            for inner in carried.values():
                if not full(out, inner[0]):
                    _add(out, inner[:3] + (_joined(inner[3], (site.step,)), inner[4]))
        return out

    def stopped(self, function: FunctionFacts, site: CallSite, depth: int) -> Taint:
        """What a sanitiser that stops only some kinds lets through: its argument, less those kinds (parameters
        and keyed reads carry the kinds stopped on, for their callers)."""
        kinds = frozenset(site.callee[len(STOPS) :].split(","))
        out: Taint = {}
        for taint in site.args:
            for atom in self.resolve(function, taint, depth).values():
                kept = _filtered(atom, kinds, self.models)
                if kept is not None:
                    _add(out, kept[:3] + (_joined(kept[3], (site.step,)), kept[4]))
        return out

    @staticmethod
    def keyed(argument: Taint, atom: tuple) -> Taint:
        """A keyed read (``k`` atom) of the callee, given the caller's resolved argument for its key parameter:
        a literal key that names a raw field (an ``f`` atom) makes that read a source of the field's kind; a key
        the caller was handed in turn makes the read the caller's own keyed read."""
        _, ref, path, trace, slot = atom
        _, stops = _ref(ref)
        out: Taint = {}
        for inner in argument.values():
            if inner[0] == "f" and inner[1] not in stops:
                _add(out, ("s", inner[1], path, _joined(inner[3], trace), slot))
            elif inner[0] == "p":
                param, more = _ref(inner[1])
                merged = (param, stops | more) if stops | more else param
                _add(out, ("k", merged, path, _joined(inner[3], trace), slot))
        return out

    # --- exceptions ------------------------------------------------------------------
    def caught(self, function: FunctionFacts, index: int, depth: int) -> Taint:
        """The text of the exception handler number ``index`` of ``function`` catches: exception text when the
        try body may raise, as a caught class, an exception whose text carries material; the function's
        parameters that reach the messages it raises."""
        key = (id(function), index)
        if key in self._caught:
            return self._caught[key] or EMPTY
        self._caught[key] = None
        types, start, end = function.catches[index]
        raw, carried = self._throws(function, function.throws[start:end], types, depth)
        out: Taint = {}
        if raw or any(atom[0] == "s" for atom in carried.values()):
            _add(out, ("s", self.models.except_binding, (), (), None))
        for atom in carried.values():
            if atom[0] == "p":
                _add(out, atom)
        self._caught[key] = out
        return out

    def raises(self, qualname: str, types: tuple[str, ...]) -> tuple[bool, Taint]:
        """What ``qualname`` lets its callers see of the exceptions of ``types``: whether one may carry material
        of its own, and the sources and parameters its messages carry."""
        key = (qualname, types)
        if key in self._raises:
            return self._raises[key] or (False, EMPTY)
        self._raises[key] = None  # in progress: a recursive call raises nothing more
        facts = self.functions[qualname][1]
        result = self._throws(facts, [t for t in facts.throws if not t[3]], types, 0)
        self._raises[key] = result
        return result

    def _throws(
        self, function: FunctionFacts, throws: list[tuple], types: tuple[str, ...], depth: int
    ) -> tuple[bool, Taint]:
        carried: Taint = {}
        for kind, ref, taint, _ in throws:
            if kind == "r":
                if taint and self.models.overlaps(ref, types):
                    for atom in self.resolve(function, taint, depth + 1).values():
                        _add(carried, atom)
                continue
            if kind == "l":
                if self.models.library_raises(ref, types):
                    return True, carried
                continue
            if ref >= len(function.calls) or depth >= MAX_DEPTH:
                continue
            site = function.calls[ref]
            target = self.find(site.callee)
            if target is None:
                if site.stores:
                    continue
                if self.models.library_raises(site.callee, types):
                    return True, carried
                continue
            if target in self.classes:
                # A constructor of the linted code: a model's validation error carries the values it refused.
                if self.models.overlaps("ValueError", types) or self.models.overlaps(
                    "TypeError", types
                ):
                    return True, carried
                continue
            raw, inner = self.raises(target, types)
            if raw:
                return True, carried
            callee = self.functions[target][1]
            for atom in inner.values():
                if atom[0] == "s":
                    _add(carried, atom)
                    continue
                if atom[0] != "p":
                    continue
                argument = _argument(site, atom[1], callee)
                for resolved in self.resolve(function, argument, depth + 1).values():
                    kept = _filtered(resolved, _ref(atom[1])[1], self.models)
                    if kept is not None:
                        _add(carried, kept)
        return False, carried

    def constructed(
        self, function: FunctionFacts, site: CallSite, target: str, depth: int
    ) -> Taint:
        """An instance of a class of the linted code: its fields hold the arguments."""
        fields = self.classes[target][1].fields  # type: ignore[attr-defined]
        out: Taint = {}
        for name, taint, span in self._fields(site, fields):
            for atom in store(self.resolve(function, taint, depth), name, span + (name,)).values():
                _add(out, atom)
        return out

    @staticmethod
    def _fields(site: CallSite, fields: list[str]):
        for index, taint in enumerate(site.args):
            if index < len(fields) and taint:
                yield (
                    fields[index],
                    taint,
                    site.spans[index] if index < len(site.spans) else site.step[:3] + (0, 0),
                )
        for name, taint in site.kwargs.items():
            if taint and name != "**":
                yield name, taint, site.kw_spans.get(name, site.step[:3] + (0, 0))

    def param_sinks(self, qualname: str) -> list[ParamSink]:
        if qualname in self._param_sinks:
            return self._param_sinks[qualname] or []
        self._param_sinks[qualname] = None
        facts = self.functions[qualname][1]
        found: dict[tuple, ParamSink] = {}
        for tag, param, reason, key, where, trace, path in self._reached(facts):
            if tag in ("p", "k"):
                found.setdefault(
                    (tag, param, where), ParamSink(param, reason, key, where, trace, path, tag)
                )
        result = list(found.values())
        self._param_sinks[qualname] = result
        return result

    # --- findings ------------------------------------------------------------------
    def _reached(self, facts: FunctionFacts) -> list[tuple]:
        """(tag, param or kind, reason, key, where, trace, path) of every source (``s``) and parameter (``p``)
        that reaches a sink in ``facts``, once per function: its own sinks, and those it reaches through calls."""
        key = id(facts)
        if key not in self._reached_by:
            self._reached_by[key] = list(self._hits(facts))
        return self._reached_by[key]

    def _hits(self, facts: FunctionFacts, tag: str = "spk"):
        for sink in [*facts.sinks, *self._fixture_fields(facts)]:
            for atom in self.resolve(facts, sink.taint, 0).values():
                if atom[0] in tag:
                    where, key = _where(atom, sink.span, sink.key)
                    yield atom[0], atom[1], sink.reason, key, where, atom[3], atom[2]
        for site in facts.calls:
            yield from self._site_hits(facts, site, tag)

    def _site_hits(self, facts: FunctionFacts, site: CallSite, tag: str):
        target = self.find(site.callee)
        declared = self.models.declared_sink(target or site.callee)
        if declared is None and site.callee.startswith("?."):
            declared = self.models.declared_method_sink(site.callee[2:])
        if declared is not None:
            reason = f"an argument of {declared}, a declared public sink"
            start = 1 if site.bound else 0
            for index, taint in list(enumerate(site.args))[start:]:
                span = site.spans[index] if index < len(site.spans) else site.step[:3] + (0, 0)
                for atom in self.resolve(facts, taint, 0).values():
                    if atom[0] in tag:
                        where, key = _where(atom, span, None)
                        yield (
                            atom[0],
                            atom[1],
                            reason,
                            key,
                            where,
                            _joined(atom[3], (site.step,)),
                            atom[2],
                        )
            for name, taint in site.kwargs.items():
                span = site.kw_spans.get(name, site.step[:3] + (0, 0))
                for atom in self.resolve(facts, taint, 0).values():
                    if atom[0] in tag:
                        where, key = _where(atom, span, name if name != "**" else None)
                        yield (
                            atom[0],
                            atom[1],
                            reason,
                            key,
                            where,
                            _joined(atom[3], (site.step,)),
                            atom[2],
                        )
            return
        if target is None:
            return
        if site.stores or target in self.classes:
            owner = self.classes.get(target) or self.functions.get(target)
            projection = getattr(owner[1], "projection", None) if owner is not None else None
            if projection is None:
                return
            fields = self.classes[target][1].fields if target in self.classes else []  # type: ignore[attr-defined]
            for name, taint, span in self._fields(site, fields):
                for atom in self.resolve(facts, taint, 0).values():
                    if atom[0] in tag:
                        where, key = _where(atom, span, name)
                        yield atom[0], atom[1], projection, key, where, atom[3], atom[2]
            return
        callee = self.functions[target][1]
        for sink in self.param_sinks(target):
            argument = self.resolve(facts, _argument(site, sink.param, callee), 0)
            marker = (sink.tag, sink.param, sink.path, (), None)
            carried = (
                self.keyed(argument, marker)
                if sink.tag == "k"
                else _after(argument, marker, self.models)
            )
            for atom in carried.values():
                if atom[0] in tag:
                    where = atom[4][:5] if atom[4] else sink.where
                    key = atom[4][5] if atom[4] else sink.key
                    yield (
                        atom[0],
                        atom[1],
                        sink.reason,
                        key,
                        where,
                        _joined(atom[3], (site.step,), sink.trace),
                        atom[2],
                    )

    def _fixture_fields(self, facts: FunctionFacts) -> list:
        """The fields of ``facts``' dicts whose keys are those of an object of a committed public fixture."""
        out = []
        for keys, fields in facts.candidates if self.shapes else ():
            fixture = _fixture_of(frozenset(keys), self.shapes)
            if fixture is not None:
                reason = f"it builds the committed public fixture {fixture} (the same keys)"
                out += [replace(f, reason=reason) for f in fields]
        return out

    def handlers(self) -> set[str]:
        """CLI command handlers: decorated as commands, or handed to argparse's ``set_defaults(func=...)``."""
        found = {q for q, (_, f) in self.functions.items() if f.handler}
        for _, facts in self.functions.values():
            for site in facts.calls:
                if site.callee.rsplit(".", 1)[-1] != "set_defaults":
                    continue
                for name, taint in site.kwargs.items():
                    if name in self.models.handler_keywords:
                        found |= {
                            t
                            for a in taint.values()
                            if a[0] == "g" and (t := self.find(a[1])) in self.functions
                        }
        return found

    def _handler_hits(self, declared: dict[str, str] | None = None):
        """With ``published = "outputs"``: what a CLI command handler returns is printed; ``declared``: what the
        configured ``pkg.mod:function()`` sinks return is published (a CLI outside the linted files prints it)."""
        reasons: dict[str, str] = {}
        if declared is not None:
            for qualname, entry in declared.items():
                found = self.find(qualname)
                if found in self.functions:
                    reasons[found] = f"returned by {entry}, a declared public sink"
        else:
            reasons = dict.fromkeys(
                self.handlers(), 'returned by a CLI command handler (published = "outputs")'
            )
        for qualname in sorted(reasons):
            reason = reasons[qualname]
            for atom in self.returns(qualname).values():
                if atom[0] == "s":
                    last = atom[3][-1] if atom[3] else ("", 0, 0, "")
                    where, key = _where(atom, (last[0], last[1], last[2], last[1], last[2]), None)
                    yield "s", atom[1], reason, key, where, atom[3], atom[2]
            # The fields of a dict it returns, one by one, as a projection's are: the summary above keeps a
            # bounded number of atoms per value, so a wide payload's later fields would be lost to it.
            facts = self.functions[qualname][1]
            for _, fields in facts.candidates:
                for sink in fields:
                    for atom in self.resolve(facts, sink.taint, 0).values():
                        if atom[0] == "s":
                            where, key = _where(atom, sink.span, sink.key)
                            yield "s", atom[1], reason, key, where, atom[3], atom[2]

    def hits(self) -> list[FlowHit]:
        found: dict[tuple, FlowHit] = {}
        everything = [
            self._reached(facts)
            for module in self.modules.values()
            for facts in module.functions.values()
        ]
        if self.models.published == "outputs":
            everything.append(list(self._handler_hits()))
        declared = self.models.declared_returns()
        if declared:
            everything.append(list(self._handler_hits(declared)))
        for produced in everything:
            for tag, kind, reason, key, where, trace, _ in produced:
                if tag != "s":
                    continue
                kind = _ref(kind)[
                    0
                ]  # a source past sanitisers of other kinds: (kind, kinds passed)
                if key is not None and kind in _COMPUTED and compact_name(key):
                    continue  # `"commit_oid": git_stdout.strip()`: the key says what the output is
                code = self.models.kinds[kind].code
                ident = (
                    code,
                    where[:3],
                )  # one leak, one finding: the other sources of the same value are counted
                old = found.get(ident)
                source = trace[0][:3] if trace else None
                others = old.sources | {source} if old is not None else frozenset({source})
                if old is None or len(trace) < len(old.trace):
                    found[ident] = FlowHit(code, kind, where, key, reason, trace, others)
                else:
                    found[ident] = replace(old, sources=others)
        return sorted(found.values(), key=lambda h: (h.where[:3], h.code))

    def findings(self, rules=None) -> list[Finding]:
        return [hit_finding(hit, self.models, rules) for hit in self.hits()]


# Keys that many unrelated dicts share: a fixture's shape is told apart by its other keys.
_GENERIC_KEYS = frozenset(
    {
        "id",
        "kind",
        "type",
        "name",
        "status",
        "state",
        "title",
        "summary",
        "schema_version",
        "version",
        "created_at",
        "updated_at",
        "count",
        "ok",
        "error",
        "value",
        "key",
        "items",
    }
)


def _fixture_of(keys: frozenset[str], shapes: list[tuple[frozenset[str], str]]) -> str | None:
    """The fixture one of whose objects has these keys: three or more shared, most of the dict's, and at least
    two that are not generic."""
    for shape, fixture in shapes:
        shared = keys & shape
        # The same object: most of the dict's keys are the fixture object's, and most of the object's the dict's.
        if (
            len(shared) >= 3
            and len(shared) * 4 >= len(keys) * 3
            and len(shared) * 4 >= len(shape) * 3
            and len(shared - _GENERIC_KEYS) >= 2
        ):
            return fixture
    return None


def _joined(first: tuple, *more: tuple) -> tuple:
    steps = first
    for trace in more:
        steps += trace
    return steps if len(steps) <= MAX_TRACE else steps[:1] + steps[-(MAX_TRACE - 1) :]


def _add(out: Taint, atom: tuple) -> None:
    add(out, identity(atom), atom)


def _where(atom: tuple, span: tuple, key: str | None) -> tuple[tuple, str | None]:
    slot = atom[4]
    if slot is not None:
        return slot[:5], slot[5]
    return span, key


def _after(carried: Taint, atom: tuple, models: FlowModels | None = None) -> Taint:
    """What a call, global or parameter carries (``carried``), put where the symbolic ``atom`` stood: the parts
    taken out of it (trailing "<key" marks: only what was stored under that key comes along), then stored under
    the atom's keys, its steps continued."""
    if not carried:
        return EMPTY
    _, ref, path, trace, slot = atom
    stops = _ref(ref)[1] if atom[0] == "p" and models is not None else frozenset()
    keys: list[str] = []
    while path and taken(path[-1]):
        keys.insert(0, path[-1][1:])
        path = path[:-1]
    out: Taint = {}
    for inner in carried.values():
        if stops:
            inner = _filtered(inner, stops, models)  # type: ignore[assignment]
            if inner is None:
                continue  # a kind a sanitiser on the way stops
        tag, ref, inner_path, inner_trace, inner_slot = inner
        if full(out, tag):
            continue  # it would not be kept: its path and steps are not worked out
        for key in keys:
            # Stored under a key first (its outermost step, as facts.read judges): only that key's part comes.
            if inner_path and not taken(inner_path[0]):
                if key != "*" and inner_path[0] not in (key, "*"):
                    break  # stored under another key: not what was taken
                inner_path = inner_path[1:]
                if not inner_path:
                    inner_slot = None  # taken out of the container it was put in
            elif tag != "s":
                inner_path = clip(inner_path + (TAKEN + key,))
        else:
            _add(
                out,
                (
                    tag,
                    ref,
                    clip(path + inner_path),
                    _joined(inner_trace, trace),
                    inner_slot if inner_slot is not None else slot,
                ),
            )
    return out


# Atoms a resolved taint keeps: sources, parameters, keyed reads of a parameter's key, literal field names.
_KEPT = frozenset({"s", "p", "k", "f"})


def _ref(ref: Any) -> tuple[Any, frozenset]:
    """A parameter atom's parameter, and the kinds sanitisers on its way stop (``(param, kinds)`` when any)."""
    return ref if isinstance(ref, tuple) else (ref, frozenset())


def _filtered(atom: tuple, kinds: frozenset, models: FlowModels | None) -> tuple | None:
    """``atom`` past a sanitiser that stops ``kinds``: a source of one is gone; a parameter (or a keyed read)
    carries them, to be stopped where its argument is known; a source that sanitisers of other kinds may stop
    together (exception text past masks of paths, hosts and secrets in turn) keeps count of those it passed."""
    if not kinds:
        return atom
    tag = atom[0]
    if tag == "s":
        kind, had = _ref(atom[1])
        if kind in kinds:
            return None
        if models is None or not models.combining(kind):
            return atom
        total = had | kinds
        return None if kind in models.closed(total) else ("s", (kind, total), *atom[2:])
    if tag in ("p", "k"):
        param, had = _ref(atom[1])
        total = had | kinds
        return (tag, (param, models.closed(total) if models is not None else total), *atom[2:])
    return atom


def _argument(site: CallSite, param: Any, callee: FunctionFacts) -> Taint:
    """The caller's argument for the callee's parameter ``param`` (a position, a keyword-only name, or
    ``*name``: the extra positional arguments)."""
    param = _ref(param)[0]
    offset = 0
    if not site.bound and callee.params[:1] in (["self"], ["cls"]) and "." in callee.qualname:
        offset = 1  # `Class.method(obj, x)` is rare; `Class(x)` calls __init__ (not followed): nothing to shift
    if isinstance(param, str):
        if param[:1] == "*":
            return union(*site.args[max(len(callee.params) - offset, 0) :])
        return site.kwargs.get(param, EMPTY)
    index = param - offset
    if 0 <= index < len(site.args):
        return site.args[index]
    name = callee.params[param] if param < len(callee.params) else None
    return site.kwargs.get(name, EMPTY) if name else EMPTY


def hit_finding(hit: FlowHit, models: FlowModels, rules=None) -> Finding:
    file, line, col, end_line, end_col = hit.where
    source = hit.trace[0] if hit.trace else (file, line, col, "?")
    kind = models.kinds[hit.kind].text
    there = f"{source[0]}:{source[1]}" if source[0] != file else f"line {source[1]}"
    target = f'published field "{hit.key}"' if hit.key else "a published value"
    more = len(hit.sources) - 1
    also = f" (and {more} more source{'s' if more > 1 else ''})" if more > 0 else ""
    message = f"{kind} '{source[3]}' ({there}){also} reaches {target}: {hit.reason}"
    steps = [FlowStep(s[0], s[1], s[2], f"'{s[3]}'") for s in hit.trace]
    steps.append(FlowStep(file, line, col, target))
    # Rule, sink key, source kind and source text: not the files' displayed paths (they change with the folder
    # the linter runs from) nor intermediate steps (a refactor keeps the baseline entry).
    ident = hashlib.sha256(
        repr((hit.key, hit.kind, source[3])).encode("utf-8", "surrogatepass")
    ).hexdigest()[:16]
    finding = make_finding(
        hit.code, message, file, Span(line, col, end_line, end_col), value_digest=ident, rules=rules
    )
    finding.trace = tuple(steps)
    return finding
