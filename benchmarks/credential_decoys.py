"""The decoy side of the labelled credential set: values that sit where credentials sit, or look
like them, but are not secrets (placeholders, references, identifiers, digests, counters, prose,
public material, encoded ordinary text). ``decoys(t)`` returns (family, provider, context, key,
value, source) tuples; context is one of bare, key, header, curl, url, prose.
"""

from __future__ import annotations

import base64
import hashlib

from credential_tokens import Tokens

PH = "placeholder"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def decoys(t: Tokens) -> list[tuple]:
    out: list[tuple] = []

    def add(family, provider, context, key, value, source):
        # only a "key" context keeps its key name; the scorer names the others after the context
        out.append((family, provider, context, key if context == "key" else None, value, source))

    # --- placeholders under credential keys and bare -----------------------------------------
    placeholders = [
        ("GitHub", "github_token", "ghp_" + "x" * 36),
        ("GitHub", "GH_TOKEN", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        ("AWS", "aws_access_key_id", "AKIAXXXXXXXXXXXXXXXX"),
        ("AWS", "aws_access_key_id", "AKIAIOSFODNN7EXAMPLE"),
        ("AWS", "aws_secret_access_key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("Stripe", "stripe_secret_key", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
        ("Stripe", "STRIPE_API_KEY", "sk_test_YOUR_SECRET_KEY"),
        ("OpenAI", "OPENAI_API_KEY", "sk-..."),
        ("OpenAI", "openai_api_key", "sk-your-openai-key-here"),
        ("OpenAI", "api_key", "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        ("Anthropic", "ANTHROPIC_API_KEY", "sk-ant-api03-..."),
        ("Anthropic", "anthropic_key", "sk-ant-xxxxxxxxxxxxxxxxxxxx"),
        ("Hugging Face", "HF_TOKEN", "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
        ("Slack", "SLACK_BOT_TOKEN", "xoxb-your-bot-token"),
        ("Slack", "SLACK_APP_TOKEN", "xapp-1-XXXXXXXXXXX-0000000000000-xxxxxxxx"),
        ("generic", "api_key", "your_api_key_here"),
        ("generic", "API_KEY", "YOUR_API_KEY"),
        ("generic", "token", "<TOKEN>"),
        ("generic", "client_secret", "<your-client-secret>"),
        ("generic", "password", "changeme"),
        ("generic", "password", "REPLACE_ME"),
        ("generic", "secret", "dummy"),
        ("generic", "api_token", "EXAMPLE"),
        ("generic", "access_token", "TODO"),
        ("generic", "auth_token", "fake-token-for-tests"),
        ("generic", "SECRET_KEY", "insert-secret-key-here"),
        ("generic", "db_password", "password"),
        ("generic", "private_key", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"),
        ("Twilio", "TWILIO_AUTH_TOKEN", "your_auth_token"),
        (
            "SendGrid",
            "SENDGRID_API_KEY",
            "SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ),
        ("GitLab", "GITLAB_TOKEN", "glpat-xxxxxxxxxxxxxxxxxxxx"),
        ("npm", "NPM_TOKEN", "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        ("Databricks", "DATABRICKS_TOKEN", "dapiXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        ("generic", "api_key", "0" * 32),
        ("generic", "token", "1234567890abcdef"),
        ("generic", "password", "********"),
    ]
    for i, (prov, key, val) in enumerate(placeholders):
        add(
            PH,
            prov,
            "key" if i % 3 else "bare",
            key,
            val,
            f"near-miss of {prov}: documentation placeholder",
        )
    for prov, line in [
        ("generic", "Authorization: Bearer <token>"),
        ("GitHub", "Authorization: token YOUR_GITHUB_TOKEN"),
        ("Okta", "Authorization: SSWS ${OKTA_API_TOKEN}"),
        ("Anthropic", "x-api-key: $ANTHROPIC_API_KEY"),
        ("Stripe", "curl https://api.stripe.com/v1/charges -u sk_test_xxx:"),
        ("Mailgun", "curl -s --user 'api:YOUR_API_KEY' https://api.mailgun.net/v3/domains"),
        ("generic", "curl -u $USER:$TOKEN https://api.example.com/v1/me"),
        ("URL credentials", "postgresql://user:password@localhost:5432/db"),
        ("URL credentials", "https://username:password@example.com/"),
        ("URL credentials", "redis://:<password>@localhost:6379/0"),
    ]:
        ctx = (
            "curl" if line.startswith("curl") else "header" if ":" in line.split(" ")[0] else "url"
        )
        add(PH, prov, ctx, None, line, f"near-miss of {prov}: documentation placeholder in a {ctx}")

    # --- template and environment references ------------------------------------------------
    for key, val in [
        ("GITHUB_TOKEN", "${{ secrets.GITHUB_TOKEN }}"),
        ("token", "{{ secrets.API_TOKEN }}"),
        ("api_key", "${OPENAI_API_KEY}"),
        ("password", "$DB_PASSWORD"),
        ("token", "%(token)s"),
        ("secret", "{secret}"),
        ("api_key", "{{ .Values.apiKey }}"),
        ("password", "${env:DB_PASSWORD}"),
        ("client_secret", "$(CLIENT_SECRET)"),
        ("aws_secret_access_key", "${{ secrets.AWS_SECRET_ACCESS_KEY }}"),
        ("STRIPE_SECRET_KEY", "os.environ['STRIPE_SECRET_KEY']"),
        ("apiKey", "process.env.OPENAI_API_KEY"),
        ("token", "vault:secret/data/ci#token"),
        ("password", "op://Private/postgres/password"),
        (
            "db_password",
            "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-" + t.alnum(6),
        ),
        ("api_key", "projects/acme/secrets/openai-key/versions/latest"),
        ("openai_api_key", "OPENAI_API_KEY"),
        ("token_env", "GITHUB_TOKEN"),
        ("password_file", "/run/secrets/db_password"),
        ("key_path", "~/.ssh/id_ed25519"),
        ("credentials_file", "~/.aws/credentials"),
        ("SECRET_KEY", "settings.SECRET_KEY"),
        ("token", "getpass.getpass('Token: ')"),
        ("api_key", "keyring.get_password('acme', 'api')"),
    ]:
        add(
            "reference",
            "generic",
            "key",
            key,
            val,
            "near-miss of a credential key: the value names where the secret lives",
        )

    # --- redacted, masked and empty -------------------------------------------------------------
    for key, val in [
        ("token", "[REDACTED]"),
        ("api_key", "<redacted>"),
        ("password", "***"),
        ("secret", ""),
        ("api_key", None),
        ("token", "ghp_****************************abcd"),
        ("OPENAI_API_KEY", "sk-...a1B2"),
        ("aws_secret_access_key", "****************EKEY"),
        ("password", "•••••••••"),
        ("client_secret", "REDACTED"),
        ("stripe_key", "sk_live_…4242"),
        ("authorization", "Bearer [FILTERED]"),
        ("DATABASE_URL", "postgres://app:***@db:5432/app"),
        ("token", "xoxb-***"),
        ("password", "<hidden>"),
        ("HF_TOKEN", "hf_***"),
    ]:
        add(
            "redacted",
            "generic",
            "key",
            key,
            val,
            "near-miss of a credential key: masked or empty value",
        )

    # --- real prefixes, wrong length / alphabet / checksum ------------------------------------
    wrong = [
        ("GitHub", "ghp_" + t.alnum(20), "too short"),
        ("GitHub", "ghp_" + t.alnum(30), "no checksum part"),
        ("GitHub", "gho_" + "-".join(t.lower(5) for _ in range(4)), "hyphenated words"),
        ("AWS", "AKIA" + t.upper(10), "12 chars short"),
        ("AWS", "AKIA" + t.lower(16), "lower-case body"),
        ("Stripe", "sk_live_" + t.alnum(5), "too short"),
        ("Stripe", "sk_test_" + "abc", "too short"),
        ("Slack", "xoxb-123", "truncated"),
        ("Slack", "xoxp-" + t.lower(6), "truncated"),
        ("GitLab", "glpat-" + t.alnum(6), "too short"),
        ("Hugging Face", "hf_" + t.lower(5), "too short"),
        ("npm", "npm_" + t.lower(8), "too short"),
        ("SendGrid", "SG." + t.alnum(6), "one segment, short"),
        ("DigitalOcean", "dop_v1_" + t.hex(10), "too short"),
        ("age", "AGE-SECRET-KEY-1" + t.upper(8), "too short"),
        ("Anthropic", "sk-ant-" + t.lower(4), "too short"),
        ("OpenAI", "sk-" + t.lower(6), "too short"),
        ("Telegram", "123456:AB", "too short"),
        ("Postman", "PMAK-" + t.hex(6), "too short"),
        ("Dynatrace", "dt0c01." + t.upper(5), "too short"),
        ("Vault", "hvs." + t.lower(4), "too short"),
        ("Linear", "lin_api_" + t.lower(5), "too short"),
        ("Docker Hub", "dckr_pat_" + "x" * 4, "too short"),
        ("GitHub", "gho_" + t.alnum(12), "too short"),
        ("GitHub", "ghs_" + t.alnum(16), "too short"),
        ("GitLab", "glpat-" + t.alnum(8), "too short"),
        ("Slack", "xoxp-" + t.alnum(6), "too short"),
    ]
    for prov, val, why in wrong:
        add("wrong-shape", prov, "bare", None, val, f"near-miss of {prov}: real prefix, {why}")
    for _ in range(4):
        add(
            "wrong-shape",
            "GitHub",
            "bare",
            None,
            t.github("ghp_", valid_crc=False),
            "near-miss of GitHub PAT: last six characters are not the CRC32 of the body (GitHub token format blog)",
        )
    for word in [
        "sk_live_mode",
        "sk_test_helpers",
        "ghp_import",
        "xoxb_scopes",
        "AKIA_PREFIX",
        "hf_hub_download",
        "npm_config_cache",
        "glpat_prefix_regex",
    ]:
        add(
            "wrong-shape",
            "generic",
            "key",
            "name",
            word,
            "near-miss: identifier that starts with a real token prefix",
        )

    # --- identifiers under id keys -------------------------------------------------------------
    for key in [
        "request_id",
        "trace_id",
        "user_id",
        "correlation_id",
        "idempotency_key",
        "tenant_id",
        "device_id",
        "installation_id",
        "run_id",
        "job_uuid",
        "org_id",
        "event_id",
        "key_id",
        "api_key_id",
    ]:
        add(
            "identifier",
            "generic",
            "key",
            key,
            t.uuid4(),
            "near-miss: UUID identifier under an id key",
        )
    ids = [
        ("Stripe", "customer", "cus_" + t.alnum(14)),
        ("Stripe", "payment_intent", "pi_" + t.alnum(24)),
        ("Stripe", "price_id", "price_1" + t.alnum(23)),
        ("Stripe", "charge", "ch_" + t.alnum(24)),
        ("OpenAI", "id", "chatcmpl-" + t.alnum(29)),
        ("OpenAI", "file_id", "file-" + t.alnum(22)),
        ("OpenAI", "assistant_id", "asst_" + t.alnum(24)),
        ("Anthropic", "id", "msg_01" + t.alnum(22)),
        ("Anthropic", "tool_use_id", "toolu_01" + t.alnum(22)),
        ("Slack", "channel", "C0" + t.upper(9)),
        ("Slack", "user", "U0" + t.upper(9)),
        ("GitHub", "node_id", _b64("04:User" + t.digits(8))),
        ("Twilio", "account_sid", "AC" + t.hex(32)),
        ("Twilio", "message_sid", "SM" + t.hex(32)),
        ("AWS", "role_arn", "arn:aws:iam::" + t.digits(12) + ":role/deploy"),
        ("AWS", "account_id", t.digits(12)),
        ("MongoDB", "_id", t.hex(24)),
        ("generic", "event_id", "01" + t.pick("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)),
        ("generic", "short_id", t.urlsafe(21)),
        ("Google", "client_id", t.digits(12) + "-" + t.lower(32) + ".apps.googleusercontent.com"),
        ("Azure", "tenant_id", t.uuid4()),
        ("Azure", "subscription_id", t.uuid4()),
        ("Ethereum", "wallet_address", "0x" + t.hex(40)),
        ("Ethereum", "tx_hash", "0x" + t.hex(64)),
        ("Sentry", "dsn", f"https://{t.hex(32)}@o{t.digits(6)}.ingest.sentry.io/{t.digits(7)}"),
    ]
    for prov, key, val in ids:
        src = (
            "Sentry docs: the DSN is safe to ship in client code"
            if prov == "Sentry"
            else f"near-miss of {prov}: object identifier, not a credential"
        )
        add("identifier", prov, "key", key, val, src)

    # --- digests and checksums -----------------------------------------------------------------
    for key in [
        "sha256",
        "digest",
        "checksum",
        "content_hash",
        "sha",
        "commit",
        "head_sha",
        "etag",
        "fingerprint",
        "integrity",
        "image_digest",
        "blob_sha",
        "md5",
        "tree_sha",
        "hash",
    ]:
        data = t.rng.randbytes(24)
        if key in ("sha", "commit", "head_sha", "blob_sha", "tree_sha"):
            val = hashlib.sha1(data).hexdigest()
        elif key == "md5" or key == "etag":
            val = hashlib.md5(data).hexdigest()
        elif key == "integrity":
            val = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        elif key == "image_digest":
            val = "sha256:" + hashlib.sha256(data).hexdigest()
        elif key == "fingerprint":
            val = "SHA256:" + base64.b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
        else:
            val = hashlib.sha256(data).hexdigest()
        add("digest", "generic", "key", key, val, "near-miss: digest or git SHA under a digest key")
    for _ in range(5):
        add(
            "digest",
            "generic",
            "bare",
            None,
            hashlib.sha1(t.rng.randbytes(20)).hexdigest(),
            "near-miss: bare git commit SHA",
        )
    for _ in range(3):
        add(
            "digest",
            "generic",
            "prose",
            None,
            f"Fixed in commit {hashlib.sha1(t.rng.randbytes(20)).hexdigest()}, see the changelog.",
            "near-miss: commit SHA in prose",
        )

    # --- counters, settings and booleans under credential-ish keys ----------------------------
    for key, val in [
        ("token_count", 123),
        ("max_tokens", 4096),
        ("input_tokens", 1532),
        ("tokens_used", 0),
        ("password_min_length", 12),
        ("secret_rotation_days", 90),
        ("api_key_required", True),
        ("token_expires_in", 3600),
        ("token_type", "Bearer"),
        ("auth_method", "api_key"),
        ("password_hash_algorithm", "argon2id"),
        ("key_size", 2048),
        ("secret_name", "prod-db-password"),
        ("token_url", "https://oauth2.googleapis.com/token"),
        ("password_reset_url", "https://acme.dev/reset"),
        ("api_key_header", "X-Api-Key"),
        ("credential_source", "Ec2InstanceMetadata"),
        ("token_limit", 128000),
        ("secret_version", 7),
        ("tokenizer", "cl100k_base"),
        ("key_algorithm", "RS256"),
        ("persist-credentials", False),
        ("token_budget", "2k"),
        ("api_key_prefix", "sk_live_"),
        ("keyring_backend", "keyring.backends.SecretService.Keyring"),
    ]:
        add(
            "setting",
            "generic",
            "key",
            key,
            val,
            "near-miss of a credential key: count, setting or name",
        )

    # --- prose ----------------------------------------------------------------------------------
    for text in [
        "Set the GITHUB_TOKEN environment variable before running the release script.",
        "The API key must be 32 characters long and start with sk_.",
        "Tokens expire after one hour; refresh them with the refresh token endpoint.",
        "Never commit your .env file; store secrets in the vault.",
        "password: at least 12 characters, one digit and one symbol",
        "Rotate the Stripe secret key from the dashboard if you suspect a leak.",
        "Each request consumed about 1,500 tokens of context.",
        "The secret is empty/None when the integration is disabled.",
        "Use a fine-grained personal access token with read-only contents permission.",
        "AWS access keys start with AKIA; temporary ones start with ASIA.",
        "Authentication failed: invalid API key provided.",
        "See docs/auth.md for how to obtain a Hugging Face token.",
        "client_secret: OAuth2 client secret issued by the provider.",
        "The bearer token is passed in the Authorization header.",
        "We moved all credentials to 1Password and revoked the old Slack tokens.",
        "Input tokens: %d, output tokens: %d",
        "Slack app-level tokens begin with xapp- and are used for Socket Mode.",
        "The private key never leaves the HSM.",
        "Run `aws configure` and paste your access key id and secret when asked.",
        "The token: see docs",
    ]:
        add("prose", "generic", "prose", None, text, "near-miss: prose about credentials")

    # --- public material -----------------------------------------------------------------------
    for _ in range(4):
        add(
            "public",
            "Stripe",
            "key",
            "stripe_publishable_key",
            "pk_live_51" + t.alnum(97),
            "Stripe docs (docs.stripe.com/keys): publishable keys are meant for client-side code",
        )
    for _ in range(3):
        add(
            "public",
            "OpenSSH",
            "key",
            "ssh_public_key",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
            + base64.b64encode(t.rng.randbytes(32)).decode().rstrip("=")
            + " deploy@ci",
            "near-miss of a private key: an SSH public key",
        )
    add(
        "public",
        "PEM",
        "key",
        "public_key",
        t.pem("PUBLIC KEY", 294, lead="MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"),
        "near-miss of a PEM private key: a public key",
    )
    add(
        "public",
        "PEM",
        "key",
        "ca_cert",
        t.pem("CERTIFICATE", 700, lead="MIIDdzCCAl+gAwIBAgIE"),
        "near-miss of a PEM private key: a certificate",
    )
    add(
        "public",
        "Google",
        "key",
        "measurement_id",
        "G-" + t.upper(10),
        "near-miss: Google Analytics measurement id",
    )
    add(
        "public",
        "Google",
        "key",
        "recaptcha_site_key",
        "6Lc" + t.urlsafe(37),
        "reCAPTCHA docs: the site key is public",
    )

    # --- encoded ordinary text, colours, sequences, package names, versions -----------------
    for key, text in [
        ("content_b64", "Hello, world! These are the release notes for version 1.2.3."),
        ("payload", '{"event":"push","ref":"refs/heads/main","count":3}'),
        ("data", "The quick brown fox jumps over the lazy dog, twice."),
        ("attachment", "name,email\nAda,ada@example.org\nLin,lin@example.org\n"),
        ("cursor", '{"offset":1500,"sort":"created_at","direction":"desc"}'),
        ("next_page_token", '{"page":4,"per_page":100}'),
        ("state", '{"return_to":"/settings/profile","nonce_version":2}'),
        ("body", "Thanks for the report, the fix ships in the next release."),
    ]:
        add(
            "encoded-text",
            "generic",
            "key",
            key,
            _b64(text),
            "near-miss: base64 of ordinary text under a non-credential key",
        )
    add(
        "encoded-text",
        "generic",
        "key",
        "icon",
        "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA" + t.b64_bytes(48),
        "near-miss: base64 image bytes under a non-credential key",
    )
    for key, val in [
        ("color", "#1e90ff"),
        ("theme_color", "#FF5733"),
        ("background", "#0d1117"),
        ("accent", "#a371f7ff"),
        ("palette", "#264653 #2a9d8f #e9c46a #f4a261 #e76f51"),
    ]:
        add("colour", "generic", "key", key, val, "near-miss: CSS hex colours")
    for _ in range(4):
        add(
            "sequence",
            "generic",
            "key",
            "sequence",
            t.pick("ACGT", 48),
            "near-miss: DNA sequence (upper-case run)",
        )
    for val in [
        "THEQUICKBROWNFOXJUMPSOVERTHELAZYDOG",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
        "MAXIMUMRETRYCOUNTEXCEEDED",
    ]:
        add("sequence", "generic", "bare", None, val, "near-miss: upper-case run")
    for val in [
        "@types/node",
        "detect-secrets",
        "python-dotenv",
        "ghp-import",
        "hf-transfer",
        "aws-secretsmanager-caching",
        "keyring",
        "tokenizers",
        "secretstorage",
        "sk-video",
        "pypi-simple",
        "npm-run-all",
    ]:
        add(
            "package-name",
            "generic",
            "key",
            "package",
            val,
            "near-miss: package name (some start with token prefixes)",
        )
    for key, val in [
        ("version", "1.5.0"),
        ("python_requires", ">=3.10"),
        ("image", "ghcr.io/acme/app:sha-" + t.hex(7)),
        ("locale", "en_US.UTF-8"),
        ("regex", r"^ghp_[A-Za-z0-9]{36}$"),
        ("pattern", r"AKIA[0-9A-Z]{16}"),
        ("timezone", "America/Argentina/Buenos_Aires"),
        ("mime", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ]:
        add("misc", "generic", "key", key, val, "near-miss: ordinary configuration value")
    # --- more of the commonest near-misses: bare UUIDs and digests, prefix + filler, log prose --
    for _ in range(10):
        add("identifier", "generic", "bare", None, t.uuid4(), "near-miss: bare UUID")
    for key in ["session_id", "job_id", "build_id"]:
        add(
            "identifier",
            "generic",
            "prose",
            None,
            f"Retrying {key.replace('_', ' ')} {t.uuid4()} after a timeout.",
            "near-miss: UUID in prose",
        )
    for _ in range(6):
        add(
            "digest",
            "generic",
            "bare",
            None,
            "sha256:" + hashlib.sha256(t.rng.randbytes(16)).hexdigest(),
            "near-miss: bare sha256 digest",
        )
    for prefix, n in [
        ("sk_live_", 24),
        ("ghp_", 36),
        ("glpat-", 20),
        ("xoxb-", 40),
        ("hf_", 34),
        ("npm_", 36),
        ("dckr_pat_", 27),
        ("lin_api_", 40),
        ("PMAK-", 59),
        ("dop_v1_", 64),
        ("AKIA", 16),
        ("sk-ant-api03-", 95),
    ]:
        fillers = ["X", "0", "x", "*"]
        first = fillers.index(t.rng.choice(fillers))
        used = {
            item[4] for item in out
        }  # a value already listed (a named placeholder) would count twice
        filler = (
            next(c for c in fillers[first:] + fillers[:first] if prefix + c * n not in used) * n
        )
        add(
            PH,
            "generic",
            "key",
            "api_token",
            prefix + filler,
            f"near-miss of {prefix}: prefix followed by filler",
        )
    for text in [
        "Generated 1532 tokens in 2.3 s (665 tokens/s).",
        "token_count=123 cached=False",
        "Loaded tokenizer cl100k_base with 100256 tokens.",
        "WARN: api_key not set, falling back to anonymous access",
        "key rotation scheduled for 2026-12-01 00:00 UTC",
        "password reset email sent to the account owner",
        "secret scanning found 0 alerts on main",
        "Using credentials from the instance metadata service",
        "auth: token refreshed, expires_in=3599",
        "INFO signing key id kid-2026-11 loaded from JWKS",
    ]:
        add("prose", "generic", "prose", None, text, "near-miss: log line mentioning credentials")
    for key, val in [
        ("key", "user:1234:profile"),
        ("cache_key", "v2:/api/repos?page=3"),
        ("primary_key", "id"),
        ("sort_key", "created_at#desc"),
        ("partition_key", "tenant-" + t.digits(4)),
        ("s3_key", "exports/2026/11/report.csv"),
        ("object_key", "uploads/" + t.uuid4() + ".png"),
        ("keys", "ctrl+shift+p"),
        ("hotkey", "Alt+F4"),
        ("foreign_key", "orders.customer_id"),
    ]:
        add(
            "setting",
            "generic",
            "key",
            key,
            val,
            "near-miss: the word key in a non-credential sense",
        )
    return out
