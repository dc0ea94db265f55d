"""Near misses under password names: words, stand-ins, templates, code and look-alike names."""

import os

DB_PASSWORD = "correct-horse-battery-staple"
smtp_password = "${SMTP_PASSWORD}"
admin_pass = os.environ["ADMIN_PASS"]
ADMIN_PASSWORD = "change-me-please"
bypass = "Quill%4821vTn#Rpa"
compass = "Marble!2093kQ~wXe"
password_hint = "Orbit^3368pW&jHa"
