"""Regenerate the second-round labelled credential set (issue 26) from seeded token shapes.

    python3 benchmarks/make_credential_round2.py [--out tests/data/credentials/round2.jsonl] [--seed 26]

It also writes round2_holdout.jsonl beside it: a smaller set written after the rules were settled (seed + 1), to
measure them on examples they were not tuned on.

Same schema as labelled.jsonl (make_credential_set.py); ``family`` is the issue's group, so
credential_score.py reports recall and decoy rate per group. Contexts beyond the first set's:
"code" (a line of code or config in another syntax, stored as text). Every value is written here,
by hand or from a seeded RNG; none was issued by a provider.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from credential_tokens import ALNUM, LOWER_ALNUM, Tokens  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "tests" / "data" / "credentials" / "round2.jsonl"
ISSUE = "issue 26 (written for ovadapt-lint)"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _mixed(t: Tokens, n: int) -> str:
    """n alphanumerics with at least one digit, one lower and one upper letter (a generated value)."""
    while True:
        value = t.alnum(n)
        if (
            any(c.isdigit() for c in value)
            and any(c.islower() for c in value)
            and any(c.isupper() for c in value)
        ):
            return value


def _pw(t: Tokens, n: int, specials: str = "#@!%") -> str:
    body = _mixed(t, n - 2)
    return body[:3] + t.rng.choice(specials) + body[3:7] + t.rng.choice(specials) + body[7:]


def context_names(t: Tokens) -> list[tuple]:
    """(family, provider, context, key, value) positives: credential names and syntaxes of issue 26."""
    out = []
    keys = [
        "creds",
        "CREDS",
        "dbCreds",
        "mySecretString",
        "adobeClientSecret",
        "todo_secret_do_not_commit",
        "appSecretValue",
        "SECRET_STRING",
        "cloudflare",
        "sourcegraph",
        "CLOUDFLARE",
        "mailgun",
        "service_creds",
        "webhookSecretValue",
        "secret_for_signing",
    ]
    for i, key in enumerate(keys):
        value = [_mixed(t, 24), t.urlsafe(32), _mixed(t, 20), t.b64_bytes(24)][i % 4]
        out.append(("context-name", "generic", "key", key, value))
    lines = [
        'api_token = os.getenv("API_TOKEN", "{v}")',
        'token = os.environ.get("GITHUB_TOKEN", "{v}")',
        'var token = Environment.GetEnvOrDefault("api_token", "{v}");',
        'secret = getenv("SERVICE_SECRET", default="{v}")',
        "    'secret_key' => '{v}',",
        '  :api_key => "{v}",',
        '"client_secret" => "{v}"',
        'apiToken := "{v}"',
        'clientSecret := "{v}"',
        '<add key="Password" value="{v}"/>',
        '<add key="ApiToken" value="{v}" />',
        'if token == "{v}":',
        "if (apiKey === '{v}') {{",
        'assert client_secret == "{v}"',
        'export CREDS="{v}"',
        'todoSecret: "{v}"',
        '$config["auth_secret"] = "{v}";',
        'let appSecret = "{v}";',
        'private static final String API_TOKEN = "{v}";',
        "set -x SLACK_SECRET {v}",
    ]
    for i, line in enumerate(lines):
        value = [_mixed(t, 32), t.urlsafe(28), _mixed(t, 22), t.hex(32)][i % 4]
        out.append(("context-name", "generic", "code", None, line.format(v=value)))
    return out


def context_name_decoys(t: Tokens) -> list[tuple]:
    out = [
        ("context-name", "generic", "key", k, v)
        for k, v in [
            ("secretRef", "payments-db-credentials-ref"),
            ("secret_name", "prod-database-credentials"),
            ("creds_path", "config/creds/service.json"),
            ("cloudflare", "enabled-for-all-zones"),
            ("cloudflare_zone_id", t.hex(32)),
            ("sourcegraph", "https://sourcegraph.com/search"),
            ("mySecretString", "generate_secret_value"),
            ("secretManagerProject", "payments-prod-vault-7"),
            ("SECRET_STRING", "not-set-in-this-environment"),
            ("creds", "from-the-vault-at-runtime"),
        ]
    ]
    out += [
        ("context-name", "generic", "code", None, line)
        for line in [
            'api_token = os.getenv("API_TOKEN", "")',
            'level = os.getenv("LOG_LEVEL", "INFO_DEBUG_VERBOSE_1")',
            'url = os.getenv("TOKEN_URL", "https://auth.example.com/oauth/token")',
            '<add key="PasswordPolicy" value="MinLength8RequireDigit"/>',
            '<add key="TokenLifetimeMinutes" value="1440" />',
            'if token == "":',
            'if token_type == "refresh_token_rotation":',
            "'secret_key' => env('APP_SECRET_KEY'),",
            'apiToken := os.Getenv("API_TOKEN")',
            "mySecretString = generate_secret(32)",
            "if secret == SECRET_PLACEHOLDER_VALUE:",
            'token := strings.TrimPrefix(header, "Bearer ")',
        ]
    ]
    return out


def hex_under_names(t: Tokens) -> list[tuple]:
    out = []
    for _i, key in enumerate(
        [
            "api_key",
            "token",
            "password",
            "meraki_api_key",
            "SONAR_LOGIN",
            "github_token",
            "auth_token",
            "apiKey",
            "SONAR_TOKEN",
            "access_token",
        ]
    ):
        out.append(("hex-under-name", "generic", "key", key, t.hex(40)))
    for key in ["secret_access_key", "secret_key", "SECRET_KEY", "aws_secret_key"]:
        out.append(("hex-under-name", "generic", "key", key, t.hex(48)))
    for line in [
        'api_key = "{h40}"',
        "TOKEN={h40}",
        'password: "{h40}"',
        'secret_key = "{h48}"',
        'MERAKI_DASHBOARD_API_KEY="{h40}"',
        '"secret_access_key": "{h48}"',
    ]:
        out.append(
            ("hex-under-name", "generic", "code", None, line.format(h40=t.hex(40), h48=t.hex(48)))
        )
    return out


def hex_decoys(t: Tokens) -> list[tuple]:
    out = [
        ("hex-under-name", "generic", "key", k, t.hex(n))
        for k, n in [
            ("commit", 40),
            ("sha", 40),
            ("revision", 40),
            ("git_sha", 40),
            ("head_commit", 40),
            ("parent", 40),
            ("tree", 40),
            ("object_id", 40),
            ("checksum", 48),
            ("digest", 48),
            ("token_sha", 40),
            ("key_fingerprint", 40),
        ]
    ]
    out += [
        ("hex-under-name", "generic", "code", None, line.format(h=t.hex(40)))
        for line in [
            "fixed in {h}",
            'rev = "{h}"',
            "git checkout {h}",
            "Merge commit {h} into main",
        ]
    ]
    return out


def curl_userinfo(t: Tokens) -> list[tuple]:
    lines = [
        "curl --user deploy:'{p}' https://api.example.net/v2/items",
        'curl -u "ops@example.org:{p}" https://registry.example.net/v2/',
        "curl -u svc-backup:{s} https://backup.example.net/upload",
        "curl -u {tok}: https://api.example.net/v1/charges",
        "curl -X POST \\\n  -u admin:{p} \\\n  https://ci.example.net/job/build",
        "curl --user=builder:{p} https://artifacts.example.net/repo/",
        "curl -s -u 'jane.doe@example.com:{p}' https://jira.example.net/rest/api/2/myself",
        "curl -u ci-bot:{s} -X PUT https://nexus.example.net/repository/raw/",
        "curl --user {tok}: https://api.example.net/v1/customers",
        "curl \\\n  --user monitor:{p} \\\n  https://grafana.example.net/api/health",
        "curl -k -u root:{s} https://10.0.0.5/api",
        "curl --proxy-user proxyuser:{p} https://example.net",
    ]
    out = []
    for _i, line in enumerate(lines):
        value = line.format(p=_mixed(t, 16), s=_pw(t, 14), tok=_mixed(t, 32))
        out.append(("curl-userinfo", "generic", "curl", None, value))
    return out


def curl_decoys(t: Tokens) -> list[tuple]:
    return [
        ("curl-userinfo", "generic", "curl", None, line)
        for line in [
            'curl -u "$USER:$PASS" https://api.example.net',
            "curl -u user:password https://api.example.net",
            "curl -u admin:admin http://localhost:8080/",
            'curl -u "${API_USER}:${API_PASSWORD}" https://api.example.net',
            "curl -u username:<password> https://api.example.net",
            "curl -u : --negotiate https://intranet.example.net",
            "curl -u $TOKEN: https://api.example.net/v1/charges",
            "curl --user-agent agent:v1 https://example.net",
        ]
    ]


def providers(t: Tokens) -> list[tuple]:
    out = []

    def add(provider, context, key, value):
        out.append(("provider-format", provider, context, key, value))

    for prefix in ["sm_pat_", "sm_aat_", "sm_sat_"]:
        add("SettleMint", "key", "settlemint_token", prefix + _mixed(t, 16))
        add("SettleMint", "bare", None, prefix + _mixed(t, 16))
    for _ in range(3):
        add("ClickHouse", "key", "clickhouse_secret", "4b1d" + _mixed(t, 38))
    add("ClickHouse", "bare", None, "4b1d" + _mixed(t, 38))
    for _ in range(3):
        token = f"sc_{t.lower(12)}.{t.lower(5)}.acc_{t.lower(16)}.{t.b64url_bytes(48)}"
        add("Authress", "bare", None, token)
    for _ in range(3):
        add("Adobe", "key", "adobe_client_secret", "p8e-" + t.pick(ALNUM, 32))
    add("Adobe", "bare", None, "p8e-" + t.pick(ALNUM, 32))
    for _ in range(3):
        add("GitLab", "bare", None, "glffct-" + t.urlsafe(20))
    add("GitLab", "header", None, "Cookie: _gitlab_session=" + t.pick(LOWER_ALNUM, 32))
    add("GitLab", "prose", None, "_gitlab_session=" + t.hex(32) + "; path=/")
    for _ in range(3):
        add("HashiCorp Vault", "key", "VAULT_TOKEN", "s." + _mixed(t, 24))
    add("HashiCorp Vault", "prose", None, "vault login s." + _mixed(t, 24))
    add("HashiCorp Vault", "bare", None, "s." + _mixed(t, 24))
    for key in ["sumo_access_id", "SUMO_ACCESS_ID", "sumologic_access_id"]:
        add("Sumo Logic", "key", key, "su" + _mixed(t, 12))
    for key in ["sumo_access_key", "SUMOLOGIC_ACCESS_KEY", "sumo_key"]:
        add("Sumo Logic", "key", key, _mixed(t, 64))
    for name in ["BUNDLE_ENTERPRISE__CONTRIBSYS__COM", "BUNDLE_GEMS__CONTRIBSYS__COM"]:
        add("Sidekiq", "code", None, f"export {name}={t.hex(8)}:{t.hex(8)}")
        add("Sidekiq", "key", name, f"{t.hex(8)}:{t.hex(8)}")
    return out


def provider_decoys(t: Tokens) -> list[tuple]:
    return [
        ("provider-format", provider, context, key, value)
        for provider, context, key, value in [
            ("SettleMint", "bare", None, "sm_pat_" + _mixed(t, 10)),
            ("ClickHouse", "bare", None, "4b1d" + _mixed(t, 20)),
            ("Adobe", "bare", None, "p8e-" + t.pick(LOWER_ALNUM, 20)),
            ("GitLab", "bare", None, "glffct-" + t.urlsafe(8)),
            ("HashiCorp Vault", "prose", None, "the class's.configurationdefaultsloaded flag"),
            ("HashiCorp Vault", "code", None, "results.append(obj) if requests.Session else None"),
            ("HashiCorp Vault", "bare", None, "s." + t.pick("abcdefghijklmnopqrstuvwxyz", 24)),
            ("Sumo Logic", "key", "sumo_source_category", "prod/app/" + t.lower(12)),
            ("Sumo Logic", "key", "summary", "su" + _mixed(t, 12)),
            ("Sidekiq", "code", None, "export BUNDLE_GEMS__CONTRIBSYS__COM=$SIDEKIQ_CREDS"),
        ]
    ]


def hidden(t: Tokens) -> list[tuple]:
    out = []

    def add(provider, context, key, value):
        out.append(("filter-hidden", provider, context, key, value))

    for prefix in ["AKIA", "ASIA", "AKIA"]:
        add("AWS", "key", "aws_access_key_id", prefix + t.pick(UPPER, 16))
    add("AWS", "bare", None, "AKIA" + t.pick(UPPER, 16))
    for _ in range(3):
        add(
            "Slack",
            "bare",
            None,
            f"xoxb-{t.digits(12)}-{t.digits(13)}-{t.pick('abcdefghijklmnopqrstuvwxyz', 24)}",
        )
    add(
        "Slack",
        "url",
        None,
        f"http://hooks.slack.com/services/T{t.upper(8)}/B{t.upper(10)}/{t.alnum(24)}",
    )
    add(
        "Slack", "url", None, f"hooks.slack.com/services/T{t.upper(8)}/B{t.upper(10)}/{t.alnum(24)}"
    )
    add(
        "Slack",
        "prose",
        None,
        f"post to hooks.slack.com/services/T{t.upper(10)}/B{t.upper(10)}/{t.alnum(24)} on failure",
    )
    for _ in range(2):
        add("Dynatrace", "header", None, f"Authorization: Api-Token {_mixed(t, 32)}")
    add("generic", "header", None, f"Authorization: Api-Token {t.hex(40)}")
    for header in ["X-API-Key", "X-Auth-Token", "Api-Key", "X-Api-Key"]:
        add("generic", "header", None, f"{header}: {t.hex(16)}")
    return out


def hidden_decoys(t: Tokens) -> list[tuple]:
    return [
        ("filter-hidden", p, c, k, v)
        for p, c, k, v in [
            ("AWS", "bare", None, "AKIA" + "ABCDEFGHIJKLMNOP"),
            ("AWS", "prose", None, "AKIAVERYLONGUPPERCASEWORDS stays a word"),
            ("Slack", "bare", None, "xoxb-not-a-real-slack-bot-token"),
            ("Slack", "url", None, "https://hooks.slack.com/services/YOUR/WEBHOOK/URL"),
            ("generic", "header", None, "Authorization: Api-Token {api_token}"),
            ("generic", "header", None, "X-API-Key: 0000000000000000"),
        ]
    ]


def repetition_decoys(t: Tokens) -> list[tuple]:
    values = [
        "AIza" + "a" * 35,
        "AIzaSy" + "A" * 33,
        "sgp_" + "5" * 7 + "d" + "5" * 32,
        "ghp_" + "abc" * 12,
        "xoxb-1111111111-2222222222-" + "a" * 24,
        "glpat-" + "ab" * 10,
        "npm_" + "qwertyuiop" * 3 + "asdfgh",
        "sk-proj-" + "0123456789" * 4,
        "hf_" + "x" * 34,
        "AKIA" + "1111111111111111",
        "sk_live_" + "9" * 24,
        "dop_v1_" + "0" * 64,
        "SG." + "A" * 22 + "." + "B" * 43,
        "sk-ant-api03-" + "z" * 40,
        "glpat-" + "1234567890" * 2,
        "ghp_" + "0" * 36,
    ]
    return [("repetition-sequence", "generic", "bare", None, v) for v in values]


def word_decoys(t: Tokens) -> list[tuple]:
    values = [
        "glptt-Need5_T00-be-exactly-40-chars-long",
        "ghp_ThisIsJustAPlaceholderTokenValue12345",
        "sk-proj-ThisIsNotARealKeyItIsOnlyForUnitTests",
        "glpat-ThisIsMyPersonalAccessToken0",
        "xoxb-not-a-real-token-this-will-not-work",
        "sk-ant-PleaseReplaceWithYourOwnAnthropicKey",
        "hf_ThisIsNotARealHuggingFaceTokenAtAll",
        "npm_ThisIsAnNpmTokenForDocumentation",
        "glpat-Insert-Your-Own-Token-Right-Here",
        "sk-DoNotCommitRealKeysToThisRepository",
    ]
    return [("word-made", "generic", "bare", None, v) for v in values]


def file_name_decoys(t: Tokens) -> list[tuple]:
    values = [
        f"assets/video_box.ico-{t.hex(32)}.png",
        f"static/main.{t.hex(20)}.chunk.js",
        f"fonts/inter.woff2-{t.hex(40)}.css",
        f"img/sk-{t.hex(24)}.svg",
        f"dist/app-{t.lower(20)}.bundle.js",
        f"public/favicon.ico-{t.hex(16)}.png",
    ]
    return [("file-name", "generic", "key", "asset", v) for v in values]


def csrf_public_decoys(t: Tokens) -> list[tuple]:
    out = [
        ("csrf-public", "generic", "key", k, v)
        for k, v in [
            ("csrf-token", t.b64_bytes(30)),
            ("csrfToken", t.b64url_bytes(32)),
            ("csrf_token", _mixed(t, 40)),
            ("publicToken", t.b64url_bytes(24)),
            ("public_key", t.b64_bytes(32)),
            ("xsrfToken", _mixed(t, 32)),
            ("anti_csrf_token", _mixed(t, 36)),
            ("publishableKey", "pk_live_" + _mixed(t, 24)),
        ]
    ]
    out += [
        ("csrf-public", "generic", "header", None, f"X-CSRF-Token: {t.b64_bytes(32)}"),
        (
            "csrf-public",
            "generic",
            "code",
            None,
            f'<meta name="csrf-token" content="{t.b64_bytes(32)}">',
        ),
    ]
    return out


def template_decoys(t: Tokens) -> list[tuple]:
    return [
        ("header-template", "generic", "header", None, v)
        for v in [
            "Authorization: Bearer {access_token}",
            "Authorization: Api-Token {token}",
            "X-API-Key: {api_key}",
            "Authorization: Basic {base64_user_pass}",
            "Authorization: Bearer {{ token }}",
            "X-Auth-Token: {YOUR_TOKEN}",
            "Authorization: token {github_token}",
            "Authorization: Bearer {self.token}",
            "X-Api-Key: {config.api_key}",
            "Authorization: Bearer {os.environ['API_TOKEN']}",
        ]
    ]


def added_after_scoring(t: Tokens) -> list[tuple]:
    """(label, family, provider, context, key, value): Vault legacy tokens (`s.` + 24) with no Vault name beside
    them, in the files they turn up in (env files, YAML, JSON, Python, shell), and `s.` near misses; literals
    compared with a credential-named attribute (`req.headers.token !== '…'`) and their near misses."""
    s, d, vault = "secret", "decoy", "HashiCorp Vault"
    return [
        (s, "context-name", "generic", "code", None, f'assert resp.token == "{_mixed(t, 26)}"'),
        (
            s,
            "context-name",
            "generic",
            "code",
            None,
            f'if self.api_key != "{_mixed(t, 24)}": raise Denied',
        ),
        (
            d,
            "context-name",
            "generic",
            "code",
            None,
            "if (user.token_type === 'refresh_token_grant_v2') {",
        ),
        (
            d,
            "context-name",
            "generic",
            "code",
            None,
            "if cfg.secret == 'ThisIsThePlaceholderSecret1':",
        ),
        (s, "provider-format", vault, "code", None, f"APP_ENV=prod\nUPSTREAM=s.{_mixed(t, 24)}\n"),
        (s, "provider-format", vault, "code", None, f"upstream:\n  auth: s.{_mixed(t, 24)}\n"),
        (
            s,
            "provider-format",
            vault,
            "code",
            None,
            f'{{"auth": {{"client_token": "s.{_mixed(t, 24)}"}}}}',
        ),
        (
            s,
            "provider-format",
            vault,
            "code",
            None,
            f'client = hvac.Client(url=URL, token="s.{_mixed(t, 24)}")',
        ),
        (
            s,
            "provider-format",
            vault,
            "code",
            None,
            f"export UPSTREAM=s.{_mixed(t, 24)} && ./sync.sh",
        ),
        (s, "provider-format", vault, "key", "renewal", "s." + _mixed(t, 24)),
        (
            s,
            "provider-format",
            vault,
            "prose",
            None,
            f"rotated the root to s.{_mixed(t, 24)} yesterday",
        ),
        (d, "provider-format", vault, "code", None, f"b = this.s.{_mixed(t, 24)}"),
        (
            d,
            "provider-format",
            vault,
            "code",
            None,
            f"d = os.path.join(vars.s.{_mixed(t, 24)}, name)",
        ),
        (
            d,
            "provider-format",
            vault,
            "code",
            None,
            "value = s.strip().lower() if s.startswith('x') else s",
        ),
        (d, "provider-format", vault, "key", "archive", f"logs.{_mixed(t, 24)}"),
        (d, "provider-format", vault, "prose", None, f"see the module's.{_mixed(t, 24)} entry"),
        (d, "provider-format", vault, "bare", None, "s." + t.lower(24)),
        (d, "provider-format", vault, "bare", None, "s." + t.upper(24)),
        (d, "provider-format", vault, "bare", None, "s." + _mixed(t, 20)),
        (d, "provider-format", vault, "bare", None, "s." + _mixed(t, 28)),
        (d, "provider-format", vault, "bare", None, f"s.{_mixed(t, 24)}_old"),
        (d, "file-name", vault, "key", "path", f"backups/s.{_mixed(t, 24)}.tar.gz"),
        (
            d,
            "file-name",
            vault,
            "url",
            None,
            f"https://cdn.example.net/assets/s.{_mixed(t, 24)}.js",
        ),
        (d, "word-made", vault, "bare", None, "s.PutYourVaultTokenHere123"),
        (d, "word-made", vault, "key", "example", "s.MyVaultTokenGoesHere2024"),
        (d, "repetition-sequence", vault, "bare", None, "s." + "Ab3" * 8),
        (d, "repetition-sequence", vault, "bare", None, "s.0123456789abcdefABCDEFGH"),
    ]


def build(seed: int) -> list[dict]:
    t = Tokens(seed)
    records = []
    for maker in (context_names, hex_under_names, curl_userinfo, providers, hidden):
        for family, provider, context, key, value in maker(t):
            records.append(
                dict(
                    provider=provider,
                    family=family,
                    format=family,
                    label="secret",
                    context=context,
                    key=key,
                    value=value,
                    source=ISSUE,
                )
            )
    for maker in (
        context_name_decoys,
        hex_decoys,
        curl_decoys,
        provider_decoys,
        hidden_decoys,
        repetition_decoys,
        word_decoys,
        file_name_decoys,
        csrf_public_decoys,
        template_decoys,
    ):
        for family, provider, context, key, value in maker(t):
            records.append(
                dict(
                    provider=provider,
                    family=family,
                    format=family,
                    label="decoy",
                    context=context,
                    key=key,
                    value=value,
                    source="near-miss, " + ISSUE,
                )
            )
    # Added after the set was first scored: an RNG of its own keeps the records above, and their ids, as they were.
    for label, family, provider, context, key, value in added_after_scoring(Tokens(seed + 100)):
        records.append(
            dict(
                provider=provider,
                family=family,
                format=family,
                label=label,
                context=context,
                key=key,
                value=value,
                source=ISSUE if label == "secret" else "near-miss, " + ISSUE,
            )
        )
    counters: dict[str, int] = {}
    for rec in records:
        prefix = "r2s" if rec["label"] == "secret" else "r2d"
        counters[prefix] = counters.get(prefix, 0) + 1
        rec["id"] = f"{prefix}{counters[prefix]:03d}-{rec['family']}"
    order = ["id", "provider", "family", "format", "label", "context", "key", "value", "source"]
    return [{k: rec[k] for k in order} for rec in records]


def holdout(t: Tokens) -> list[tuple]:
    """(label, family, provider, context, key, value): written after the rules were settled, to measure them on
    examples they were not tuned on (same groups, other names, syntaxes and values)."""
    s, d = "secret", "decoy"
    out = [
        (s, "context-name", "generic", "key", "stagingCreds", _mixed(t, 26)),
        (s, "context-name", "generic", "key", "oauthClientSecretValue", t.urlsafe(40)),
        (s, "context-name", "generic", "key", "sendgrid", _mixed(t, 30)),
        (s, "context-name", "generic", "key", "db_password_for_reports", _mixed(t, 20)),
        (s, "context-name", "generic", "code", None, f'{{"jira_api_token" => "{_mixed(t, 24)}"}}'),
        (s, "context-name", "generic", "code", None, f'appKey := "{_mixed(t, 32)}"'),
        (
            s,
            "context-name",
            "generic",
            "code",
            None,
            f'secret = os.environ.get("WEBHOOK_SECRET", "{t.hex(32)}")',
        ),
        (
            s,
            "context-name",
            "generic",
            "code",
            None,
            f'<add key="StorageAccountKey" value="{t.b64_bytes(33)}"/>',
        ),
        (
            s,
            "context-name",
            "generic",
            "code",
            None,
            f"if (req.headers.token !== '{_mixed(t, 28)}') return 401;",
        ),
        (
            s,
            "context-name",
            "generic",
            "code",
            None,
            f"$settings['api_secret'] = '{_mixed(t, 26)}';",
        ),
        (s, "hex-under-name", "generic", "key", "DATADOG_API_KEY", t.hex(40)),
        (s, "hex-under-name", "generic", "key", "jenkins_token", t.hex(40)),
        (s, "hex-under-name", "generic", "code", None, f"export SONAR_TOKEN={t.hex(40)}"),
        (s, "hex-under-name", "generic", "code", None, f'"secret_key": "{t.hex(48)}"'),
        (
            s,
            "curl-userinfo",
            "generic",
            "curl",
            None,
            f"curl -fsS --user 'release-bot:{_mixed(t, 18)}' https://repo.example.net/api",
        ),
        (
            s,
            "curl-userinfo",
            "generic",
            "curl",
            None,
            f"curl -u build@ci.example.org:{_pw(t, 16)} https://dav.example.net/",
        ),
        (
            s,
            "curl-userinfo",
            "generic",
            "curl",
            None,
            f"curl -sS \\\n  --user {_mixed(t, 40)}: \\\n  https://api.example.net/v1/x",
        ),
        (s, "provider-format", "SettleMint", "bare", None, "sm_aat_" + _mixed(t, 16)),
        (s, "provider-format", "Adobe", "key", "ADOBE_CLIENT_SECRET", "p8e-" + t.pick(ALNUM, 32)),
        (
            s,
            "provider-format",
            "GitLab",
            "prose",
            None,
            "feature flags token glffct-" + t.urlsafe(20) + " for the unleash client",
        ),
        (
            s,
            "provider-format",
            "Sidekiq",
            "code",
            None,
            f'BUNDLE_GEMS__CONTRIBSYS__COM: "{t.hex(8)}:{t.hex(8)}"',
        ),
        (
            s,
            "provider-format",
            "HashiCorp Vault",
            "header",
            None,
            "X-Vault-Token: s." + _mixed(t, 24),
        ),
        (
            s,
            "filter-hidden",
            "AWS",
            "prose",
            None,
            "the key id ASIA" + t.pick(UPPER, 16) + " expired",
        ),
        (
            s,
            "filter-hidden",
            "Slack",
            "key",
            "slack_bot",
            f"xoxb-{t.digits(11)}-{t.digits(12)}-{t.pick('abcdefghijklmnopqrstuvwxyz', 24)}",
        ),
        (
            s,
            "filter-hidden",
            "Slack",
            "code",
            None,
            f"SLACK_URL=http://hooks.slack.com/services/T{t.upper(9)}/B{t.upper(11)}/{t.alnum(24)}",
        ),
        (s, "filter-hidden", "generic", "header", None, f"X-API-Key: {t.hex(16)}"),
        (d, "context-name", "generic", "key", "secret_version", "projects/7/secrets/db/versions/3"),
        (
            d,
            "context-name",
            "generic",
            "key",
            "credentialsProvider",
            "DefaultAWSCredentialsProviderChain",
        ),
        (d, "context-name", "generic", "key", "sendgrid", "disabled_in_staging_env"),
        (d, "context-name", "generic", "code", None, 'token = os.environ.get("SLACK_TOKEN", None)'),
        (
            d,
            "context-name",
            "generic",
            "code",
            None,
            '<add key="PasswordResetUrl" value="https://example.com/reset"/>',
        ),
        (d, "context-name", "generic", "code", None, "if password == confirm_password:"),
        (
            d,
            "context-name",
            "generic",
            "code",
            None,
            "'password' => Hash::make($request->password),",
        ),
        (d, "hex-under-name", "generic", "key", "merge_commit_sha", t.hex(40)),
        (d, "hex-under-name", "generic", "code", None, f"pinned to {t.hex(40)} in the lock file"),
        (
            d,
            "curl-userinfo",
            "generic",
            "curl",
            None,
            'curl -u "${JIRA_USER}:${JIRA_TOKEN}" https://jira.example.net',
        ),
        (
            d,
            "curl-userinfo",
            "generic",
            "curl",
            None,
            "curl -u guest:guest http://rabbit.example.net:15672/api/overview",
        ),
        (d, "provider-format", "Sumo Logic", "key", "sumo_collector_name", "prod-collector-eu-2"),
        (d, "repetition-sequence", "generic", "bare", None, "ghp_" + "1234567890" * 3 + "123456"),
        (
            d,
            "repetition-sequence",
            "generic",
            "bare",
            None,
            "xoxp-" + "0" * 12 + "-" + "0" * 12 + "-" + "0" * 12 + "-" + "a" * 32,
        ),
        (d, "repetition-sequence", "generic", "bare", None, "sk-" + "xyz" * 16),
        (d, "word-made", "generic", "bare", None, "sk-live-ThisKeyIsForTheDocumentationOnly"),
        (d, "word-made", "generic", "bare", None, "ghp_YourPersonalAccessTokenGoesRightHere"),
        (d, "file-name", "generic", "key", "icon", f"static/icons/gh-{t.hex(32)}.svg"),
        (d, "csrf-public", "generic", "key", "authenticity_token", t.b64_bytes(48)),
        (d, "csrf-public", "generic", "key", "XSRF-TOKEN", _mixed(t, 40)),
        (
            d,
            "header-template",
            "generic",
            "header",
            None,
            "Authorization: Bearer {{ $json.token }}",
        ),
        (
            d,
            "header-template",
            "generic",
            "header",
            None,
            "Authorization: Api-Token {dynatrace_token}",
        ),
    ]
    return out


def build_holdout(seed: int) -> list[dict]:
    t = Tokens(seed)
    records = []
    counters: dict[str, int] = {}
    for label, family, provider, context, key, value in holdout(t):
        prefix = "h2s" if label == "secret" else "h2d"
        counters[prefix] = counters.get(prefix, 0) + 1
        records.append(
            {
                "id": f"{prefix}{counters[prefix]:03d}-{family}",
                "provider": provider,
                "family": family,
                "format": family,
                "label": label,
                "context": context,
                "key": key,
                "value": value,
                "source": ISSUE if label == "secret" else "near-miss, " + ISSUE,
            }
        )
    return records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=26)
    args = ap.parse_args(argv)
    records = build(args.seed)
    with args.out.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    with args.out.with_name("round2_holdout.jsonl").open("w", encoding="utf-8") as fh:
        for rec in build_holdout(args.seed + 1):
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    n_pos = sum(r["label"] == "secret" for r in records)
    print(
        f"wrote {len(records)} records ({n_pos} secrets, {len(records) - n_pos} decoys) to {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
