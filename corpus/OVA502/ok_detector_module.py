"""A detector module full of path regexes: describing paths is not containing them."""

import re

HOME_PATHS = re.compile(r"(?:/Users|/home)/[^/\s]+/")
WINDOWS_PROFILE = re.compile(r"[A-Za-z]:\\\\Users\\\\[^\\\\]+")
TEMP_DIRS = [r"^/tmp/[\w.-]+", r"^/private/var/folders/\w+", r"^/var/tmp/.*$"]
CREDENTIALS = re.compile(r"(?i)(?:password|token|secret)\s*[:=]\s*\S+")
