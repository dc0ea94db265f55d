"""The flow resolution does the work a result needs once (issue 25, speed): an argument is resolved once per
call however many paths of its parameter the callee's result names, and what a value at its atom bound
would drop is not worked out."""

from __future__ import annotations

from ovadapt_lint.flow import resolve
from ovadapt_lint.flow.facts import MAX_ATOMS, CallSite, FunctionFacts, ModuleFacts, taint_of
from ovadapt_lint.flow.models import flow_models

STEP = ("app.py", 3, 4, "pick(record)")


def _program(returned: dict, args: list, read: tuple = ()) -> resolve.Program:
    """``pkg.app.run`` returns what ``pkg.lib.pick`` (whose result is ``returned``) makes of ``args`` (``read``:
    the "<key" marks of what it takes out of that result)."""
    lib = ModuleFacts("pkg.lib", "lib.py", {})
    lib.functions["pkg.lib.pick"] = FunctionFacts("pkg.lib.pick", ["record", "other"], returned)
    app = ModuleFacts("pkg.app", "app.py", {"pick": "pkg.lib.pick"})
    site = CallSite("pkg.lib.pick", STEP, args, {}, [], {})
    app.functions["pkg.app.run"] = FunctionFacts(
        "pkg.app.run", ["a", "b"], taint_of(("c", 0, read, (), None)), [site]
    )
    return resolve.Program([lib, app], flow_models())


def test_an_argument_is_resolved_once_for_every_field_the_callee_reads_of_it(monkeypatch) -> None:
    fields = [f"f{i}" for i in range(5)]
    returned = taint_of(*(("p", 0, ("<" + f,), (), None) for f in fields))
    record = taint_of(("s", "credential", (), (("app.py", 2, 4, "token"),), None))
    program = _program(returned, [record])
    asked = []
    inner = resolve.Program._resolve

    def counted(self, function, taint, depth):
        asked.append((function.qualname, depth))
        return inner(self, function, taint, depth)

    monkeypatch.setattr(resolve.Program, "_resolve", counted)
    result = program.returns("pkg.app.run")
    # a field of raw material is raw material: the one source, its trace through the call
    assert [(a[0], a[1], a[3][-1]) for a in result.values()] == [("s", "credential", STEP)]
    assert asked.count(("pkg.app.run", 1)) == 1, asked  # five fields, one argument resolved


def test_a_result_at_its_bound_does_not_work_out_what_it_would_drop(monkeypatch) -> None:
    half = MAX_ATOMS // 2
    first = [("p", 0, (f"<f{i}",), (), None) for i in range(half)]
    more = [("p", 1, (f"<g{i}",), (), None) for i in range(5)]
    # The caller hands on its own parameters, symbolic, none of them a source: both as the first argument (each
    # field of it is two atoms, so the first parameter's fields fill the result), one as the second.
    both = taint_of(("p", 0, (), (), None), ("p", 1, (), (), None))
    program = _program(taint_of(*first, *more), [both, taint_of(("p", 1, (), (), None))])
    moved = []
    after = resolve._after

    def counted(carried, atom, models=None):
        moved.append(atom[1])
        return after(carried, atom, models)

    monkeypatch.setattr(resolve, "_after", counted)
    result = program.returns("pkg.app.run")
    assert len(result) == MAX_ATOMS
    assert sorted((a[1], a[2]) for a in result.values()) == sorted(
        (p, (f"<f{i}",)) for i in range(half) for p in (0, 1)
    )
    assert moved.count(1) == 0, moved  # the second parameter's fields could not have been kept


def test_a_key_read_of_a_call_result_drops_what_the_callee_stored_under_another_key() -> None:
    """``pick(a)["item_id"]`` where ``pick(record)`` returns ``{"text": record["text"], ...}``: the caller's
    parameter ``a`` reaches the result only under "text", so reading "item_id" does not carry it (its path
    starts with the stored key and ends in a taken mark; judging by the last step kept it). Reading "text" does."""
    returned = taint_of(("p", 0, ("text", "<text"), (), None))
    own = taint_of(("p", 0, (), (), None))
    for key, carried in (("item_id", []), ("text", [("p", 0)])):
        result = _program(returned, [own], ("<" + key,)).returns("pkg.app.run")
        assert [a[:2] for a in result.values()] == carried, (key, result)
