"""What the flow builder knows of one module, as plain data: cached with the module's other results,
shipped from the workers, and joined over the imports by ``resolve``.

A value's taint is a set of *atoms*, kept as a dict from identity to atom. An atom is a tuple
``(tag, ref, path, trace, slot)``:

- ``tag`` ``"s"``: a source; ``ref`` is its kind (``rules/flow/models.toml`` ``[kinds]``);
  ``"p"``: parameter number ``ref`` of the function; ``"c"``: the result of call number ``ref`` of the
  function; ``"g"``: the module-level name ``ref`` (qualified) of another module; ``"x"``: the exception
  caught by handler number ``ref`` of the function (its text is what the try body can raise);
- ``path``: where in the value the material sits (``("errors", "detail")``; ``()`` is the value itself);
- ``trace``: the steps it took, oldest first, each ``(file, line, column, text)``; a source's first step
  is the source;
- ``slot``: where it was first put under a key, ``(file, line, column, end line, end column, key)``, or
  None: a finding is reported there, at the published key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Step = tuple  # (file, line, column, text)
Atom = tuple  # (tag, ref, path, trace, slot)
Taint = dict  # identity -> Atom

EMPTY: Taint = {}  # shared: never mutated
MAX_PATH = (
    8  # keys kept per atom (CodeQL keeps access paths of 5; a "<key" mark counts as one): see clip
)
MAX_TRACE = 12  # steps kept per atom: the first (the source) and the latest
MAX_ATOMS = 24  # atoms kept per value


def identity(atom: Atom) -> tuple:
    tag, ref, path, trace, slot = atom
    return (
        tag,
        ref,
        trace[0][:3] if tag == "s" and trace else None,
        path,
        slot[:3] if slot else None,
    )


def taint_of(*atoms: Atom) -> Taint:
    return {identity(a): a for a in atoms}


def union(*taints: Taint) -> Taint:
    """The atoms of ``taints``, the earlier first; the one non-empty taint itself when only one is."""
    # One pass, copying only once a second non-empty taint comes: most unions join a value with nothing.
    first: Taint = EMPTY
    out: Taint | None = None
    for taint in taints:
        if not taint:
            continue
        if not first:
            first = taint
            continue
        if out is None:
            out = dict(first)
        for key, atom in taint.items():
            if key not in out:
                if len(out) < MAX_ATOMS:
                    out[key] = atom
                elif atom[0] in _FIRM:  # `add`, inlined: asked per atom of every union
                    _make_room(out, key, atom)
    return out if out is not None else first


def full(out: Taint, tag: str) -> bool:
    """Whether ``add`` would drop any atom tagged ``tag`` now: ``out`` is at the bound and ``tag`` makes no room.
    (``out`` never shrinks, so it stays so: callers skip building such atoms.)"""
    return len(out) >= MAX_ATOMS and tag not in _FIRM


def room(out: Taint, taint: Taint) -> bool:
    """Whether ``add`` could keep an atom of ``taint`` (or one of the same tag) in ``out``."""
    return len(out) < MAX_ATOMS or any(atom[0] in _FIRM for atom in taint.values())


def add(out: Taint, key: tuple, atom: Atom) -> None:
    """``atom`` kept in ``out`` under ``key`` (its identity), within the bound of MAX_ATOMS per value."""
    if key in out:
        return
    if len(out) < MAX_ATOMS:
        out[key] = atom
    elif atom[0] in _FIRM:
        _make_room(out, key, atom)


# At the bound, material known here outranks what may turn out to be material: a source ("s"), then the text
# of an exception caught here ("x"), then a parameter's, a call's or a global's value, resolved later.
_FIRM = {"s": 2, "x": 1}


def _make_room(out: Taint, key: tuple, atom: Atom) -> None:
    """The atom takes the place of one that ranks lower (``_FIRM``), unless a source of its kind is kept."""
    rank = _FIRM[atom[0]]
    weakest, weakest_rank = None, rank
    for held_key, held in out.items():
        held_rank = _FIRM.get(held[0], 0)
        if held_rank == 2 and atom[0] == "s" and held[1] == atom[1]:
            return  # this kind of material is already kept
        if held_rank < weakest_rank:
            weakest, weakest_rank = held_key, held_rank
    if weakest is not None:
        del out[weakest]
        out[key] = atom


def with_step(taint: Taint, step: Step) -> Taint:
    """Every atom one step further (an assignment, a call, a return)."""
    if not taint:
        return EMPTY
    out = {}
    for key, (tag, ref, path, trace, slot) in taint.items():
        if trace and trace[-1] == step:
            out[key] = (tag, ref, path, trace, slot)
            continue
        steps = trace + (step,)
        if len(steps) > MAX_TRACE:
            steps = steps[:1] + steps[-(MAX_TRACE - 1) :]
        out[key] = (tag, ref, path, steps, slot)
    return out


# At the end of a symbolic atom's path, "<key": the part under `key` ("*": any part) was taken out of that value;
# resolved when the value is known (resolve._after).
TAKEN = "<"


def taken(step: str) -> bool:
    return step[:1] == TAKEN


def clip(path: tuple) -> tuple:
    """``path`` cut to MAX_PATH keys. The trailing "<key" marks say which part of a value was taken out of
    it (what keeps a field read from carrying the record's other fields): they are kept, and the keys it was
    stored under are cut from the inside, so a deep store still sits under its outer keys."""
    if len(path) <= MAX_PATH:
        return path
    tail = len(path)
    # `taken`, inlined: resolve clips long paths by the thousand.
    while tail > 0 and path[tail - 1][:1] == TAKEN:
        tail -= 1
    marks = path[tail:]
    if len(marks) >= MAX_PATH:
        return path[:MAX_PATH]
    return path[: MAX_PATH - len(marks)] + marks


def _taken(atom: Atom, key: str) -> Atom:
    tag, ref, path, trace, slot = atom
    if tag == "s":
        return atom  # a field of raw material is raw material
    return (tag, ref, clip(path + (TAKEN + key,)), trace, slot)


def read(taint: Taint, key: str) -> Taint:
    """The part of a value under ``key``: atoms stored there, and the value's own (a field of a raw record is
    raw). Atoms stored under another key stay behind."""
    if not taint:
        return EMPTY
    out = {}
    for atom in taint.values():
        tag, ref, path, trace, slot = atom
        # Stored keys come first, taken marks last: an atom not stored under a key is the value's own.
        if not path or path[0][:1] == TAKEN:  # `taken`, inlined: asked per atom per field read
            atom = _taken(atom, key)
            out[identity(atom)] = atom
        elif path[0] == key or path[0] == "*":
            # Taken out of the container it was put in: it is published where it is put next.
            moved = (tag, ref, path[1:], trace, slot if len(path) > 1 else None)
            out[identity(moved)] = moved
    return out


def elements(taint: Taint) -> Taint:
    """What iterating a value or indexing it with a computed key gives: every part of it."""
    if not taint:
        return EMPTY
    out = {}
    for atom in taint.values():
        tag, ref, path, trace, slot = atom
        if not path or path[0][:1] == TAKEN:  # `taken`, inlined
            moved = _taken(atom, "*")
        else:
            moved = (tag, ref, path[1:], trace, slot if len(path) > 1 else None)
        out[identity(moved)] = moved
    return out


def store(taint: Taint, key: str, slot: tuple | None) -> Taint:
    """``taint`` put under ``key`` of a container; ``slot`` (where) is kept as the atom's first slot."""
    if not taint:
        return EMPTY
    out = {}
    for tag, ref, path, trace, old in taint.values():
        moved = (tag, ref, clip((key,) + path), trace, old if old is not None else slot)
        out[identity(moved)] = moved
    return out


def placed(taint: Taint, slot: tuple) -> Taint:
    """Atoms not yet under a key are now at ``slot`` (a published field's value)."""
    if not taint:
        return EMPTY
    out = {}
    for atom in taint.values():
        if atom[4] is None:
            atom = atom[:4] + (slot,)
        out[identity(atom)] = atom
    return out


@dataclass
class CallSite:
    callee: str  # qualified name; "?.name" for a method of a receiver the builder cannot name
    step: Step
    args: list[Taint]
    kwargs: dict[str, Taint]
    spans: list[tuple]  # each positional argument's span (file, line, col, end line, end col)
    kw_spans: dict[str, tuple]
    bound: bool = False  # called on an instance or class: parameter 0 (self/cls) is the receiver
    stores: bool = (
        False  # not a call: keyword stores into the value the callee returned (`out["k"] = v`)
    )


@dataclass
class Sink:
    reason: str  # what publishes the value: 'projection (schema_version "…")', 'a public file', …
    key: str | None  # the published key, when the sink is a field
    span: tuple  # the value's span (file, line, col, end line, end col)
    taint: Taint


@dataclass
class FunctionFacts:
    qualname: str
    params: list[str]
    returns: Taint = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    sinks: list[Sink] = field(default_factory=list)
    projection: str | None = (
        None  # it returns a projection: why (stores into its result are published)
    )
    handler: bool = False  # a CLI command handler by its decorator (click/typer): with outputs, its result is printed
    # Dicts of 3+ literal keys that are not known projections: published if their keys are those of an object of
    # a committed public fixture (resolve). (keys, [Sink per field that carries something])
    candidates: list[tuple[tuple[str, ...], list[Sink]]] = field(default_factory=list)
    # What the function can raise, in order: ("r", class or None, message taint, caught here) for a `raise`;
    # ("c", call index, None, caught here) for a call of the linted code; ("l", library name, None, caught here)
    # for a library call not known to raise only constant text. "Caught here": a handler of the function
    # catches it and does not raise again, so callers never see it.
    throws: list[tuple] = field(default_factory=list)
    # Per `except ... as e` handler: (classes caught, first and last+1 index into ``throws`` of its try body).
    catches: list[tuple[tuple[str, ...], int, int]] = field(default_factory=list)


@dataclass
class ClassFacts:
    qualname: str
    fields: list[str]
    projection: str | None  # why its instances are published, or None
    field_spans: dict[str, tuple] = field(default_factory=dict)


@dataclass
class ModuleFacts:
    name: str  # dotted module name (pkg.sub.mod)
    display: str  # the file as reports name it
    imports: dict[str, str]  # local name -> qualified name
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    globals: dict[str, Taint] = field(default_factory=dict)
    # The module's inline directives (checks.suppressions): `# ovadapt: ignore` line -> codes (None: all;
    # line 0: the whole file), and noqa comments: line -> codes. Flow findings are found after the module.
    suppressed: dict[int, list[str] | None] = field(default_factory=dict)
    noqa: dict[int, list[str]] = field(default_factory=dict)
    # Other files this module's own findings depend on (sibling modules read for contract constants), each
    # [path, mtime_ns, size] as it was read: a cached entry stands only while they are unchanged (engine).
    depends: list[list] = field(default_factory=list)


@dataclass
class FixtureShapes:
    """The key sets of a committed public JSON fixture's objects (3+ keys): a Python dict with the same keys
    builds that fixture, so its values are published."""

    display: str
    shapes: list[tuple[str, ...]]


# --- JSON: the cache stores facts as text --------------------------------------
def _atoms_out(taint: Taint) -> list:
    return [
        [a[0], a[1], list(a[2]), [list(s) for s in a[3]], list(a[4]) if a[4] else None]
        for a in taint.values()
    ]


def _atoms_in(rows: list) -> Taint:
    out = {}
    for tag, ref, path, trace, slot in rows:
        atom = (
            tag,
            ref,
            tuple(path),
            tuple(tuple(s) for s in trace),
            tuple(slot) if slot else None,
        )
        out[identity(atom)] = atom
    return out


def to_json(facts: ModuleFacts | FixtureShapes) -> dict[str, Any]:
    if isinstance(facts, FixtureShapes):
        return {"shapes": [list(s) for s in facts.shapes]}
    return {
        "name": facts.name,
        "display": facts.display,
        "imports": facts.imports,
        "functions": [
            [
                f.qualname,
                f.params,
                _atoms_out(f.returns),
                [
                    [
                        c.callee,
                        list(c.step),
                        [_atoms_out(a) for a in c.args],
                        {k: _atoms_out(v) for k, v in c.kwargs.items()},
                        [list(s) for s in c.spans],
                        {k: list(v) for k, v in c.kw_spans.items()},
                        c.bound,
                        c.stores,
                    ]
                    for c in f.calls
                ],
                [[s.reason, s.key, list(s.span), _atoms_out(s.taint)] for s in f.sinks],
                f.projection,
                f.handler,
                [
                    [
                        list(keys),
                        [[s.reason, s.key, list(s.span), _atoms_out(s.taint)] for s in sinks],
                    ]
                    for keys, sinks in f.candidates
                ],
                [
                    [kind, ref, _atoms_out(taint) if taint else None, caught]
                    for kind, ref, taint, caught in f.throws
                ],
                [[list(types), start, end] for types, start, end in f.catches],
            ]
            for f in facts.functions.values()
        ],
        "classes": [
            [c.qualname, c.fields, c.projection, {k: list(v) for k, v in c.field_spans.items()}]
            for c in facts.classes.values()
        ],
        "globals": {k: _atoms_out(v) for k, v in facts.globals.items()},
        "suppressed": {str(k): v for k, v in facts.suppressed.items()},
        "noqa": {str(k): v for k, v in facts.noqa.items()},
        "depends": facts.depends,
    }


def from_json(data: dict[str, Any], display: str) -> Any:
    if "shapes" in data:
        return FixtureShapes(display, [tuple(s) for s in data["shapes"]])
    facts = ModuleFacts(data["name"], data["display"], dict(data["imports"]))
    for (
        qualname,
        params,
        returns,
        calls,
        sinks,
        projection,
        handler,
        candidates,
        throws,
        catches,
    ) in data["functions"]:
        facts.functions[qualname] = FunctionFacts(
            qualname,
            list(params),
            _atoms_in(returns),
            [
                CallSite(
                    callee,
                    tuple(step),
                    [_atoms_in(a) for a in args],
                    {k: _atoms_in(v) for k, v in kwargs.items()},
                    [tuple(s) for s in spans],
                    {k: tuple(v) for k, v in kw_spans.items()},
                    bound,
                    stores,
                )
                for callee, step, args, kwargs, spans, kw_spans, bound, stores in calls
            ],
            [
                Sink(reason, key, tuple(span), _atoms_in(taint))
                for reason, key, span, taint in sinks
            ],
            projection,
            handler,
            [
                (tuple(keys), [Sink(r, k, tuple(sp), _atoms_in(t)) for r, k, sp, t in fields])
                for keys, fields in candidates
            ],
            [
                (kind, ref, _atoms_in(taint) if taint is not None else None, caught)
                for kind, ref, taint, caught in throws
            ],
            [(tuple(types), start, end) for types, start, end in catches],
        )
    for qualname, fields, projection, spans in data["classes"]:
        facts.classes[qualname] = ClassFacts(
            qualname, list(fields), projection, {k: tuple(v) for k, v in spans.items()}
        )
    facts.globals = {k: _atoms_in(v) for k, v in data["globals"].items()}
    facts.suppressed = {
        int(k): (list(v) if v is not None else None) for k, v in data["suppressed"].items()
    }
    facts.noqa = {int(k): list(v) for k, v in data["noqa"].items()}
    facts.depends = [list(d) for d in data.get("depends", ())]
    if (
        display != facts.display
    ):  # the cache is keyed by content: the same module may sit elsewhere now
        facts = _renamed(facts, display)
    return facts


def _renamed(facts: ModuleFacts, display: str) -> ModuleFacts:
    """The facts of an identical file read under another name: every step and span names the new file."""
    data = to_json(facts)
    old = facts.display

    def fix(value):
        if isinstance(value, list):
            if value and value[0] == old and len(value) in (4, 5, 6):
                return [display, *value[1:]]
            return [fix(v) for v in value]
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return value

    data = fix(data)
    data["display"] = display
    return from_json(data, display)
