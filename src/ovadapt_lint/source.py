"""Reading a discovered file: size limit, encoding checks, byte-offset -> line/column.

One line model for every file kind and every consumer (positions, frames, suppressions, fix offsets):
a line ends at ``\r\n``, ``\r`` or ``\n``. That is the rule of Python's tokenizer, CommonMark and SARIF
regions; JSON treats ``\r`` and ``\n`` as whitespace and forbids them raw inside strings, so the split
never falls inside a JSON value. ``\x0b``, ``\x0c``, ``\x1c``-``\x1e``, ``\x85``, U+2028 and U+2029
(which ``str.splitlines`` also breaks on) are ordinary characters.
"""

from __future__ import annotations

import bisect
import codecs
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from .findings import Finding, Span, make_finding

DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024

_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)  # PEP 263
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """``text`` cut into lines, each keeping its line ending (the one line model, not ``str.splitlines``)."""
    if "\r" not in text:  # "\n" the only line ending: split in C
        lines = text.split("\n")
        last = lines.pop()
        lines = [line + "\n" for line in lines]
        if last:
            lines.append(last)
        return lines
    lines, start = [], 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def strip_line_end(line: str) -> str:
    """A line without its one line ending (a suffix test: a regex anchored at the end would try every
    position of a long minified line)."""
    if line.endswith("\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith(("\r", "\n")) else line


def advance(line: int, column: int, text: str) -> tuple[int, int]:
    """The 1-based (line, column) just after ``text`` when it starts at (line, column)."""
    breaks = LINE_BREAK.findall(text)
    if not breaks:
        return line, column + len(text)
    last = LINE_BREAK.split(text)[-1]
    return line + len(breaks), len(last) + 1


def file_stamp(path: str) -> tuple[int, int]:
    """(mtime_ns, size) of a file, (-1, -1) when it cannot be stat-ed: what a module's flow facts record of the
    sibling files its contract values were read from, and what a warm run compares them with."""
    try:
        info = os.stat(path)
    except OSError:
        return -1, -1
    return info.st_mtime_ns, info.st_size


@dataclass
class SourceFile:
    """A UTF-8 file's bytes (BOM removed) with a line index for position conversion."""

    path: Path
    display: str
    data: bytes
    # The file's own encoding when it is not UTF-8 (a PEP 263 declaration); ``data`` is then transcoded to UTF-8.
    encoding: str = "utf-8"
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _ascii: dict[int, bool] = field(
        default_factory=dict, repr=False
    )  # line index -> only ASCII bytes
    _last: tuple[int, int, int] = field(
        default=(-1, 0, 1), repr=False
    )  # (line index, offset, column)

    def __post_init__(self) -> None:
        if b"\r" in self.data:
            self._line_starts = [0] + [m.end() for m in _LINE_BREAK_BYTES.finditer(self.data)]
        else:  # "\n" the only line ending: each line's start from the lengths before it
            self._line_starts = [
                0,
                *accumulate(len(line) + 1 for line in self.data.split(b"\n")[:-1]),
            ]

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "surrogateescape")

    def line_count(self) -> int:
        return len(self._line_starts)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a byte offset; columns count code points. On an ASCII line a byte is a
        code point; elsewhere counting resumes from the previous position on the same line, so many findings
        on one long (minified) line cost time linear in its length, not quadratic."""
        index = bisect.bisect_right(self._line_starts, offset) - 1
        start = self._line_starts[index]
        ascii_line = self._ascii.get(index)
        if ascii_line is None:
            end = (
                self._line_starts[index + 1]
                if index + 1 < len(self._line_starts)
                else len(self.data)
            )
            ascii_line = self._ascii[index] = self.data[start:end].isascii()
        if ascii_line:
            return index + 1, offset - start + 1
        last_index, last_offset, last_column = self._last
        if last_index == index and last_offset <= offset:
            column = last_column + len(self.data[last_offset:offset].decode("utf-8", "replace"))
        else:
            column = len(self.data[start:offset].decode("utf-8", "replace")) + 1
        self._last = (index, offset, column)
        return index + 1, column

    def span(self, start: int, end: int) -> Span:
        start_line, start_col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(start_line, start_col, end_line, end_col)

    def offset(self, line: int, column: int) -> int:
        """The byte offset of a 1-based line and code-point column (clamped to the file)."""
        if line < 1:
            return 0
        if line > len(self._line_starts):
            return len(self.data)
        start = self._line_starts[line - 1]
        return start + len(self.line_text(line)[: max(column - 1, 0)].encode("utf-8"))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line ending."""
        if line < 1 or line > len(self._line_starts):
            return ""
        start = self._line_starts[line - 1]
        end = self._line_starts[line] if line < len(self._line_starts) else len(self.data)
        return strip_line_end(self.data[start:end].decode("utf-8", "replace"))


# What a name or message may not carry to a terminal or a CI log: C0 controls (ESC starts a terminal sequence,
# a line break starts a line GitHub Actions reads as a workflow command), DEL, C1 controls (0x9B is a
# one-byte CSI), the Unicode line and paragraph separators and the bidirectional overrides (a name that
# reads backwards). Each becomes a visible escape, so the text keeps one line and says what was there.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` (a file name, a path, a message quoting them) safe to print on one line of a terminal or a CI
    log: each control character as a backslash escape (``\\n``, ``\\x1b``, ``\\u2028``)."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(
        lambda m: (
            _ESCAPES.get(m.group(), None)
            or (
                f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"
            )
        ),
        text,
    )


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


class NotRegularFile(OSError):
    """A FIFO, socket or device where a file was expected: reading it could block forever."""

    def __init__(self) -> None:
        super().__init__("not a regular file (a FIFO, socket or device)")
        self.strerror = "not a regular file (a FIFO, socket or device)"


def open_regular(path: str | os.PathLike) -> int:
    """A descriptor open for reading on ``path`` only when it is a regular file. Opened without blocking
    (a FIFO with no writer would block ``open`` itself), checked with fstat on the open descriptor (no race
    with a swap after a stat), then set back to blocking reads. Raises OSError (NotRegularFile)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile()
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike, limit: int = -1) -> bytes:
    """The bytes of a regular file (at most ``limit``, all when -1); OSError for anything else (see open_regular).
    Read with os.read on the checked descriptor, no buffered file object: a warm run reads a small cache entry
    for each of its files."""
    fd = open_regular(path)
    try:
        chunks = []
        left = limit
        while left:
            chunk = os.read(fd, _CHUNK if left < 0 else min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            if left > 0:
                left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


_CHUNK = 1 << 20


def notice(
    code: str, message: str, display: str, span: Span | None = None, severity: str | None = None
) -> Finding:
    return make_finding(code, message, display, span or Span(1, 1, 1, 1), severity=severity)


def read_source(
    path: Path,
    display: str,
    max_size: int = DEFAULT_MAX_FILE_SIZE,
    kind: str = "json",
    data: bytes | None = None,
) -> tuple[SourceFile | None, list[Finding]]:
    """Read and decode-check a file. Returns (source or None, notices).
    ``kind``: a UTF-8 byte-order mark is reported for JSON only (Python and Markdown allow it).
    ``data``: the file's bytes when the caller already read them."""
    if data is not None:
        return _decode(path, display, data, kind)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None, [notice("OVA003", "file disappeared before it could be read", display)]
    except OSError as exc:
        return None, [
            notice("OVA003", f"cannot stat file: {exc.strerror or type(exc).__name__}", display)
        ]
    if max_size and size > max_size:
        return None, [
            notice(
                "OVA004",
                f"file is {size:,} bytes, over the {max_size:,}-byte limit; not checked",
                display,
            )
        ]
    try:
        data = read_regular(path, max_size + 1 if max_size else -1)
    except FileNotFoundError:
        return None, [notice("OVA003", "file disappeared before it could be read", display)]
    except OSError as exc:
        return None, [
            notice("OVA003", f"cannot read file: {exc.strerror or type(exc).__name__}", display)
        ]
    if max_size and len(data) > max_size:  # grew between stat and read
        return None, [
            notice("OVA004", f"file is over the {max_size:,}-byte limit; not checked", display)
        ]
    return _decode(path, display, data, kind)


def _decode(
    path: Path, display: str, data: bytes, kind: str
) -> tuple[SourceFile | None, list[Finding]]:
    notices: list[Finding] = []
    if data.startswith(_UTF32_BOMS):
        return None, [
            notice(
                "OVA002",
                "file is UTF-32 (byte-order mark found); JSON fixtures must be UTF-8",
                display,
            )
        ]
    if data.startswith(_UTF16_BOMS):
        return None, [
            notice(
                "OVA002",
                "file is UTF-16 (byte-order mark found); JSON fixtures must be UTF-8",
                display,
            )
        ]
    if b"\x00" in data:
        sample = data[:4096]
        if (
            len(sample) >= 2
            and sample.count(b"\x00") * 2 >= len(sample) - 1
            and (sample[1:2] == b"\x00" or sample[0:1] == b"\x00")
        ):
            return None, [
                notice(
                    "OVA002",
                    "file looks like UTF-16 without a byte-order mark; JSON fixtures must be UTF-8",
                    display,
                )
            ]
        src = SourceFile(path, display, data)
        line, col = src.position(data.index(b"\x00"))
        return None, [
            notice(
                "OVA005",
                "file contains NUL bytes: binary content, not checked",
                display,
                Span(line, col, line, col + 1),
            )
        ]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        if kind in ("json", "jsonl"):
            notices.append(
                notice(
                    "OVA002",
                    "file starts with a UTF-8 byte-order mark (not allowed by RFC 8259); checked without it",
                    display,
                    severity="warning",
                )
            )
    if kind == "python":
        declared = _python_encoding(data)
        if declared is None:
            return None, notices + [
                notice(
                    "OVA002",
                    "unknown encoding in the coding declaration; file not checked",
                    display,
                )
            ]
        if declared != "utf-8":
            return _transcode(path, display, data, declared, notices)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        src = SourceFile(path, display, data)
        line, col = src.position(exc.start)
        notices.append(
            notice(
                "OVA002",
                f"invalid UTF-8 byte 0x{data[exc.start]:02x} at line {line}, column {col}; file not checked",
                display,
                Span(line, col, line, col + 1),
            )
        )
        return None, notices
    return SourceFile(path, display, data), notices


def _python_encoding(data: bytes) -> str | None:
    """The encoding Python reads the file with (PEP 263 declaration, default UTF-8); None when unknown."""
    try:
        name = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:  # an unknown declaration (Python refuses the file too), or undeclared bytes that are not UTF-8
        return None if _CODING.search(b"\n".join(data.split(b"\n", 2)[:2])) else "utf-8"
    return "utf-8" if codecs.lookup(name).name in ("utf-8", "utf-8-sig") else name


def _transcode(
    path: Path, display: str, data: bytes, encoding: str, notices: list[Finding]
) -> tuple[SourceFile | None, list[Finding]]:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        return None, notices + [
            notice(
                "OVA002",
                f"byte 0x{data[exc.start]:02x} at offset {exc.start} is not valid "
                f"{encoding} (the file's coding declaration); file not checked",
                display,
            )
        ]
    return SourceFile(
        path, display, text.encode("utf-8", "surrogateescape"), encoding=encoding
    ), notices
