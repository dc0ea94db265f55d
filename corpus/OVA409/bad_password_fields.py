"""Passwords people chose, under password names: punctuation and all, below any entropy limit."""

DB_PASSWORD = "Quill%4821vTn#Rpa"
settings = {"smtpPassword": "Marble!2093kQ~wXe", "admin_pass": "Cedar@5517Lm_Zox"}
connect(host="db.internal", user="svc", password="Orbit^3368pW&jHa")
