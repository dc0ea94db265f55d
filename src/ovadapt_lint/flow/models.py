"""The flow models (``rules/flow/models.toml``) as one value, extended by the configuration."""

from __future__ import annotations

import builtins
import fnmatch
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from .. import rulepack

# How a dict published only as a machine-readable output is named: the projection analysis writes it into the
# reason (checks/python_projections), the flow builder recognises outputs by it (envelopes).
OUTPUT = "a machine-readable output"


@dataclass(frozen=True)
class Kind:
    code: str
    text: str


class CallKind(NamedTuple):
    """A call by its name (FlowModels.call_kind): which special call of build.FunctionBuilder.called it may be
    (each is still judged there on what the call is given), and whether it may publish (call_sinks)."""

    env: bool  # an environment read (`os.environ.get`, `os.getenv`)
    substitution: bool  # `re.sub` / `pattern.sub`: redaction when its replacement is a placeholder
    partial: frozenset[str] | None  # a configured sanitiser that stops only these kinds
    kills: bool  # its result carries nothing of its arguments
    sanitises: bool  # ... and it is a configured sanitiser: what it accepted is clean from here on
    kill_method: bool  # a method whose result carries nothing of its receiver
    source: str | None  # a source call of this kind
    opens: bool  # opens a file: what is read from a private one is file content
    propagates: bool  # its result carries its arguments (propagators, serialisers)
    sinks: bool  # may publish its arguments (call_sinks)

    # None of the above (`sinks` aside): only its arguments, sinks and call site are worked out (the fast path)
    plain: bool


_PLAIN = CallKind(False, False, None, False, False, False, None, False, False, False, True)


@dataclass(frozen=True)
class FlowModels:
    kinds: dict[str, Kind]
    source_calls: dict[str, str]
    source_methods: dict[str, str]
    source_names: dict[str, str]
    fields: dict[str, str]
    except_binding: str
    whole_record_methods: frozenset[str]
    env_credential: re.Pattern[str]
    env_path: re.Pattern[str]
    env_calls: frozenset[str]
    credential_flags: re.Pattern[str]
    path_join_params: bool
    kill_calls: frozenset[str]
    kill_modules: tuple[str, ...]
    kill_methods: frozenset[str]
    kill_attributes: frozenset[str]
    placeholders: re.Pattern[str]
    substitutions: frozenset[str]
    # (marks, kinds): a sanitiser whose pattern shows these marks stops these kinds (see stopped_by)
    pattern_kinds: tuple[tuple[re.Pattern[str], frozenset[str]], ...]
    # (all of these, then these too): kinds that stopping together stops more (see closed)
    pattern_combined: tuple[tuple[frozenset[str], frozenset[str]], ...]
    propagate_calls: frozenset[str]
    propagate_methods: frozenset[str]
    counted_calls: frozenset[str]  # `enumerate`: elements are (a count, an element of the argument)
    zipped_calls: frozenset[str]  # `zip`: elements are (an element of each argument, by position)
    container_methods: frozenset[str]
    dumps: frozenset[str]
    serialisers: frozenset[str]
    write_methods: frozenset[str]
    open_calls: frozenset[str]
    open_methods: frozenset[str]
    public_suffixes: tuple[str, ...]
    public_folders: frozenset[str]
    outputs: frozenset[str]
    handler_keywords: frozenset[str]
    handler_decorators: frozenset[str]
    exc_quiet_calls: frozenset[str] = frozenset()
    exc_quiet_methods: frozenset[str] = frozenset()
    exc_carriers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exc_bases: dict[str, str] = field(default_factory=dict)
    # From the configuration.
    sanitizers: frozenset[str] = (
        frozenset()
    )  # qualified names or last names of the user's sanitisers (every kind)
    # The user's sanitisers that name the kinds they stop ("pkg.mod.mask:credential"): name -> kinds
    partial_sanitizers: dict[str, frozenset[str]] = field(default_factory=dict)
    public_sinks: tuple[str, ...] = ()  # "pkg.module:function" / "pkg.module:Class.method"
    validators: frozenset[str] = frozenset()  # last names of calls whose argument is published
    published: str = "projections"  # or "outputs": every machine-readable output is published
    _answers: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def kills(self, name: str) -> bool:
        """A call whose result carries nothing of its arguments (by qualified name)."""
        answer = self._answers.get(name)
        if answer is None:
            last = name.rsplit(".", 1)[-1]
            answer = self._answers[name] = (
                name in self.kill_calls
                or name.split(".", 1)[0] in self.kill_modules
                or name in self.sanitizers
                or last in self.sanitizers
            )
        return answer

    def call_kind(self, name: str, raw_name: str | None, method: str | None) -> CallKind:
        """What a call of ``name`` (qualified; ``raw_name`` as written, ``method`` its last name for a method
        call) is by its name alone: the one place that decides which of the special calls of
        build.FunctionBuilder.called it may be, and whether it may publish (the tests by name of
        build.FunctionBuilder.call_sinks). Asked per call, answered once per name."""
        key = ("call", name, raw_name, method)
        answer = self._answers.get(key)
        if answer is None:
            partial = self.partial(name) if name else None
            kills = bool(name) and self.kills(name)
            env = name in self.env_calls or (raw_name or "").endswith(("environ.get", ".getenv"))
            substitution = name in self.substitutions or method in self.substitutions
            kill_method = method is not None and method in self.kill_methods
            source = self.source_calls.get(name)
            opens = name in self.open_calls
            propagates = name in self.propagate_calls or name in self.serialisers
            receiver = (
                raw_name.rpartition(".")[0] if raw_name is not None and method is not None else None
            )
            last = name.rsplit(".", 1)[-1] if name else method
            sinks = (
                name in self.dumps
                or method in self.write_methods
                or (
                    self.published == "outputs"
                    and (name in self.outputs or f"{receiver}.{method}" in self.outputs)
                )
                or (bool(self.validators) and last in self.validators)
            )
            # build.FunctionBuilder.called tests each of these, in turn, where a call is not plain
            plain = not (
                env
                or substitution
                or partial is not None
                or kills
                or kill_method
                or source is not None
                or opens
                or propagates
            )
            fields = (
                env,
                substitution,
                partial,
                kills,
                kills and (name in self.sanitizers or last in self.sanitizers),
                kill_method,
                source,
                opens,
                propagates,
                sinks,
                plain,
            )
            # Most calls are none of these: one answer shared (equal to it field for field), none made per name.
            answer = _PLAIN if fields == _PLAIN else CallKind._make(fields)
            self._answers[key] = answer
        return answer

    def partial(self, name: str) -> frozenset[str] | None:
        """The kinds a configured sanitiser that names them stops (by qualified or last name); None if not one."""
        if not self.partial_sanitizers:
            return None
        found = self.partial_sanitizers.get(name)
        if found is None:
            found = self.partial_sanitizers.get(name.rsplit(".", 1)[-1])
        return self.closed(found) if found is not None else None

    def combining(self, kind: str) -> bool:
        """Whether sanitisers stopping other kinds together may stop ``kind`` too (``pattern_combined``)."""
        return any(kind in more for _, more in self.pattern_combined)

    def closed(self, kinds: frozenset[str]) -> frozenset[str]:
        """``kinds`` with what stopping all of them together stops too (``pattern_combined``)."""
        for needed, more in self.pattern_combined:
            if needed <= kinds:
                kinds = kinds | more
        return kinds

    def stopped_by(self, text: str) -> frozenset[str] | None:
        """The kinds a refusal or redaction stops, from the text of what it looks for (its pattern, the names of
        its constants and predicates); None: every kind (no class's marks are in it)."""
        kinds: set[str] = set()
        for marks, stopped in self.pattern_kinds:
            if marks.search(text):
                kinds |= stopped
        if not kinds or kinds >= set(self.kinds):
            return None
        return self.closed(frozenset(kinds))

    def quiet_call(self, name: str) -> bool:
        """A library call (``pkg.func``, or ``?.method`` on a receiver not named) whose exceptions carry nothing."""
        if name.startswith("?."):
            return name[2:] in self.exc_quiet_methods
        return name in self.exc_quiet_calls

    def library_raises(self, name: str, caught: tuple[str, ...]) -> bool:
        """Whether a library call may raise, as one of ``caught``, an exception whose text carries material."""
        if self.quiet_call(name):
            return False
        carried = self.exc_carriers.get(name)
        if carried is None:
            return True  # not modelled: anything, with any text
        return any(self.overlaps(kind, caught) for kind in carried)

    def lineage(self, name: str) -> tuple[str, ...] | None:
        """``name`` and its base classes, for builtins and the modelled library classes; None if not known."""
        answer = self._answers.get(("lineage", name))
        if answer is None and ("lineage", name) not in self._answers:
            kind = getattr(builtins, name, None) if "." not in name else None
            if isinstance(kind, type) and issubclass(kind, BaseException):
                answer = tuple(c.__name__ for c in kind.__mro__ if c is not object)
            elif name in self.exc_bases:
                parent = self.lineage(self.exc_bases[name])
                answer = (name, *parent) if parent is not None else None
            self._answers[("lineage", name)] = answer
        return answer

    def overlaps(self, raised: str | None, caught: tuple[str, ...]) -> bool:
        """Whether an exception raised as ``raised`` (None: not known) may be caught by a handler of ``caught``."""
        if raised is None:
            return True
        up = self.lineage(raised)
        for handler in caught:
            if handler in ("Exception", "BaseException"):
                return True
            down = self.lineage(handler)
            if up is None or down is None or handler in up or raised in down:
                return True
        return False

    def covers(self, raised: str | None, caught: tuple[str, ...]) -> bool:
        """Whether every exception raised as ``raised`` is caught by a handler of ``caught``."""
        if any(h in ("Exception", "BaseException") for h in caught):
            return True
        up = self.lineage(raised) if raised is not None else None
        return up is not None and any(h in up for h in caught)

    def is_public_path_text(self, text: str) -> bool:
        """A path literal that names a published file: `*.public.json`, or a `fixtures/` folder on the way."""
        if text.endswith(self.public_suffixes):
            return True
        return any(p in self.public_folders for p in text.replace("\\", "/").split("/"))

    def declared_sink(self, qualname: str) -> str | None:
        """The configured public sink that ``qualname`` (``pkg.mod.Class.meth``) is, if any."""
        for entry in self.public_sinks:
            if entry.replace(":", ".") == qualname:
                return entry
        return None

    def declared_returns(self) -> dict[str, str]:
        """``pkg.mod.function`` -> its configured entry ``pkg.mod:function()``: functions whose return value is
        published (printed or sent by code outside the linted files)."""
        return {
            e.removesuffix("()").replace(":", "."): e for e in self.public_sinks if e.endswith("()")
        }

    def declared_method_sink(self, method: str) -> str | None:
        """A configured ``Class.method`` sink matched by its method name on an unresolved receiver."""
        for entry in self.public_sinks:
            target = entry.split(":", 1)[-1]
            if "." in target and target.rsplit(".", 1)[-1] == method:
                return entry
        return None


def _globs(patterns: list[str], flags: int = 0) -> re.Pattern[str]:
    return re.compile("|".join(fnmatch.translate(p) for p in patterns) or r"(?!)", flags)


def _sanitizers(
    entries: tuple[str, ...], kinds: set[str]
) -> tuple[list[str], dict[str, frozenset[str]]]:
    """The configured sanitisers: those that stop every kind (``pkg.mod.redact``), and those that name the kinds
    they stop (``pkg.mod.mask_tokens:credential,local-path``, by qualified and by last name). Names that are no
    kind are left out (``sanitizer_errors`` reports them)."""
    whole: list[str] = []
    partial: dict[str, frozenset[str]] = {}
    for entry in entries:
        name, colon, listed = entry.partition(":")
        if not colon:
            whole.append(entry)
            continue
        named = frozenset(k.strip() for k in listed.split(",")) & kinds
        if named:
            partial[name] = partial[name.rsplit(".", 1)[-1]] = named
    return whole, partial


def sanitizer_errors(entries: tuple[str, ...] | list[str]) -> list[str]:
    """One line per configured sanitiser whose kinds are not all flow kinds (``rules/flow/models.toml``)."""
    kinds = set(rulepack.load_toml("flow", "models.toml")["kinds"])
    out = []
    for entry in entries:
        name, colon, listed = entry.partition(":")
        unknown = (
            sorted(k.strip() for k in listed.split(",") if k.strip() not in kinds) if colon else []
        )
        if unknown:
            out.append(
                f"sanitizer {name!r} names unknown kind(s) {', '.join(unknown)} "
                f"(kinds: {', '.join(sorted(kinds))})"
            )
    return out


@lru_cache(maxsize=8)
def flow_models(
    sanitizers: tuple[str, ...] = (),
    public_sinks: tuple[str, ...] = (),
    validators: tuple[str, ...] = (),
    published: str = "projections",
) -> FlowModels:
    data = rulepack.load_toml("flow", "models.toml")
    sources, kill, carry, sinks = (
        data["sources"],
        data["sanitizers"],
        data["propagators"],
        data["sinks"],
    )
    raises = data["exceptions"]
    whole, partial = _sanitizers(sanitizers, set(data["kinds"]))
    return FlowModels(
        kinds={name: Kind(**row) for name, row in data["kinds"].items()},
        source_calls=dict(sources["calls"]),
        source_methods=dict(sources["methods"]),
        source_names=dict(sources["names"]),
        fields=dict(sources["fields"]),
        except_binding=sources["except_binding"],
        whole_record_methods=frozenset(sources["whole_record_methods"]),
        env_credential=_globs(sources["env_credential"]),
        env_path=_globs(sources["env_path"]),
        env_calls=frozenset(sources["env_calls"]),
        credential_flags=_globs(sources["credential_flags"]),
        path_join_params=bool(sources["path_join_params"]),
        kill_calls=frozenset(kill["calls"]),
        kill_modules=tuple(kill["modules"]),
        kill_methods=frozenset(kill["methods"]),
        kill_attributes=frozenset(kill["attributes"]),
        placeholders=re.compile(kill["placeholders"]),
        substitutions=frozenset(kill["substitutions"]),
        pattern_kinds=tuple(
            (re.compile(row["marks"]), frozenset(row["kinds"])) for row in kill["pattern_kinds"]
        ),
        pattern_combined=tuple(
            (frozenset(row["all_of"]), frozenset(row["kinds"])) for row in kill["pattern_combined"]
        ),
        propagate_calls=frozenset(carry["calls"]),
        propagate_methods=frozenset(carry["methods"]),
        counted_calls=frozenset(carry["counted"]),
        zipped_calls=frozenset(carry["zipped"]),
        container_methods=frozenset(carry["container_methods"]),
        dumps=frozenset(sinks["dumps"]),
        serialisers=frozenset(sinks["serialisers"]),
        write_methods=frozenset(sinks["write_methods"]),
        open_calls=frozenset(sinks["open_calls"]),
        open_methods=frozenset(sinks["open_methods"]),
        public_suffixes=tuple(sinks["public_suffixes"]),
        public_folders=frozenset(sinks["public_folders"]),
        outputs=frozenset(sinks["outputs"]),
        handler_keywords=frozenset(sinks["handler_keywords"]),
        handler_decorators=frozenset(sinks["handler_decorators"]),
        exc_quiet_calls=frozenset(raises["quiet_calls"]),
        exc_quiet_methods=frozenset(raises["quiet_methods"]),
        exc_carriers={k: tuple(v) for k, v in raises["carriers"].items()},
        exc_bases=dict(raises["bases"]),
        sanitizers=frozenset(whole) | frozenset(s.rsplit(".", 1)[-1] for s in whole),
        partial_sanitizers=partial,
        public_sinks=public_sinks,
        validators=frozenset(v.rsplit(".", 1)[-1] for v in validators),
        published=published,
    )
