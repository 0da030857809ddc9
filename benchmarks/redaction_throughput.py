"""Redaction throughput and accuracy: vibflow's contract vs detect-secrets itself.

One synthetic text of ``--mb`` megabytes (default 5) mixes log lines, Python
code and English prose, with planted secrets of many shapes (AWS, GitHub,
Slack, Stripe, JWT, PEM, passwords quoted and unquoted, URL credentials,
high-entropy base64 and hex, Google, npm, OpenAI, SendGrid, bearer tokens)
and planted near-misses (UUIDs, commit hashes, camelCase identifiers,
relative paths, versions, colors). In the same process, over the same text:

* **vibflow** — ``redact_text`` (the whole contract: secrets, privacy filter,
  fixed-point check), and its secret pass alone (``find_secrets``);
* **detect-secrets scan_line** — its in-memory API, one call per line;
* **detect-secrets scan_file** — its file scan (the text written once to a
  temporary file, outside the timing), the mode its CLI uses.

detect-secrets runs with exactly the plugins vibflow runs
(``DETECT_SECRETS_PLUGINS``) and its default filters. Reported: MB/s each
way and the ratio, and on the planted set, for each:

* recall — planted secrets whose every character is masked (for
  detect-secrets: every occurrence of each value it reports, in its line);
* precision — masked spans that overlap a planted secret / all masked spans;
* near-misses kept — planted near-misses no mask touches.

Usage::

    python benchmarks/redaction_throughput.py [--mb 5] [--seed 7] [--repeat 1] [--json]
"""

from __future__ import annotations

import argparse
import base64
import json
import platform
import random
import re
import string
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GOAL_RATIO = 1.0  # at least detect-secrets' throughput ...
# ... with at least its recall.

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
WORDS = (
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "it",
    "that",
    "for",
    "on",
    "with",
    "as",
    "was",
    "at",
    "by",
    "this",
    "be",
    "from",
    "are",
    "or",
    "an",
    "have",
    "not",
    "but",
    "which",
    "they",
    "you",
    "were",
    "one",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "error",
    "request",
    "user",
    "file",
    "value",
    "config",
    "build",
    "test",
    "run",
    "step",
    "flow",
    "state",
    "recovery",
    "journal",
    "checkpoint",
    "memory",
    "handoff",
    "audit",
    "preview",
    "confirm",
    "restore",
    "branch",
    "commit",
    "merge",
    "deploy",
    "cache",
)
IDENTS = (
    "getUserAccountSettingsFromDatabaseCache",
    "handleRequestContext",
    "buildRecoveryPlanPreview",
    "AccountSettingsRepository",
    "HTTPServerRequestHandlerFactory",
    "parseFlowDefinitionFromYaml",
    "recordTransitionInJournal",
    "callFunctionCheckIfDataAlreadyExistsPerpetualSubinventory",
)


@dataclass
class Corpus:
    text: str = ""
    secrets: list[tuple[int, int, str]] = field(default_factory=list)  # start, end, shape
    near: list[tuple[int, int, str]] = field(default_factory=list)


class Builder:
    """Appends lines and remembers where planted values landed."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.parts: list[str] = []
        self.size = 0
        self.corpus = Corpus()

    def line(self, *pieces: tuple[str, str | None, str | None]) -> None:
        """pieces: (text, secret-shape or None, near-miss-shape or None)."""
        for text, secret, near in pieces:
            if secret:
                self.corpus.secrets.append((self.size, self.size + len(text), secret))
            if near:
                self.corpus.near.append((self.size, self.size + len(text), near))
            self.parts.append(text)
            self.size += len(text)
        self.parts.append("\n")
        self.size += 1

    def build(self) -> Corpus:
        self.corpus.text = "".join(self.parts)
        return self.corpus


def r(rng: random.Random, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def b64(rng: random.Random, nbytes: int) -> str:
    return base64.b64encode(rng.randbytes(nbytes)).decode()


def jwt(rng: random.Random) -> str:
    def enc(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    sig = base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
    payload = {"sub": str(rng.randrange(10**9)), "iat": 1714651200 + rng.randrange(10**6)}
    return f"{enc({'alg': 'HS256', 'typ': 'JWT'})}.{enc(payload)}.{sig}"


# shape -> (prefix, secret, suffix) maker
SecretMaker = Callable[[random.Random], tuple[str, str, str]]
SECRETS: dict[str, SecretMaker] = {
    "aws_key": lambda g: ("export AWS_ACCESS_KEY_ID=", "AKIA" + r(g, UPPER, 16), ""),
    "aws_secret_unquoted": lambda g: ("aws_secret_access_key = ", b64(g, 30), ""),
    "github_ghp": lambda g: ("GITHUB_TOKEN=", "ghp_" + r(g, ALNUM, 36), ""),
    "github_pat": lambda g: ("using ", "github_pat_" + r(g, ALNUM, 22) + "_" + r(g, ALNUM, 59), ""),
    "slack_bot": lambda g: (
        "SLACK_TOKEN=",
        f"xoxb-{g.randrange(10**11, 10**12)}-{g.randrange(10**12, 10**13)}-{r(g, ALNUM, 24)}",
        "",
    ),
    "stripe_live": lambda g: ('stripe.api_key = "', "sk_live_" + r(g, ALNUM, 99), '"'),
    "jwt": lambda g: ("Authorization: Bearer ", jwt(g), ""),
    "password_unquoted": lambda g: ("password=", r(g, ALNUM, 12), ""),
    "password_quoted": lambda g: ('    password = "', r(g, ALNUM, 14), '"'),
    "url_credentials": lambda g: ("DATABASE_URL=postgres://app:", r(g, ALNUM, 16), "@db:5432/app"),
    "b64_quoted": lambda g: ('SIGNING_KEY = "', b64(g, 32), '"'),
    "b64_bare": lambda g: ("rotated key ", b64(g, 40), " today"),
    "hex_header": lambda g: ("X-Api-Key: ", r(g, HEX, 32), ""),
    "google_key": lambda g: ("key=", "AIza" + r(g, ALNUM + "_-", 35), ""),
    "npm_token": lambda g: ("NPM_TOKEN=", "npm_" + r(g, ALNUM, 36), ""),
    "openai_key": lambda g: ("OPENAI_API_KEY=", "sk-proj-" + r(g, ALNUM, 48), ""),
    "sendgrid_key": lambda g: (
        "SENDGRID_API_KEY=",
        "SG." + r(g, ALNUM, 22) + "." + r(g, ALNUM, 43),
        "",
    ),
    "bearer_opaque": lambda g: ('-H "Authorization: Bearer ', r(g, ALNUM, 40), '"'),
}


def pem(g: random.Random) -> list[str]:
    body = b64(g, 48 * 6)
    return [body[i : i + 64] for i in range(0, len(body), 64)]


def background(b: Builder, g: random.Random) -> None:
    kind = g.randrange(10)
    if kind < 4:  # a log line, often with a UUID
        uid = f"{r(g, HEX, 8)}-{r(g, HEX, 4)}-4{r(g, HEX, 3)}-a{r(g, HEX, 3)}-{r(g, HEX, 12)}"
        b.line(
            (
                f"2024-05-02T12:{g.randrange(60):02d}:{g.randrange(60):02d}"
                f".{g.randrange(1000):03d}Z "
                f"INFO [worker-{g.randrange(8)}] GET /api/v1/items/{g.randrange(10**5)} 200 "
                f"{g.randrange(1, 900)}ms request_id=",
                None,
                None,
            ),
            (uid, None, "uuid"),
        )
    elif kind < 7:  # code
        b.line(
            (f"    def {g.choice(WORDS)}_{g.choice(WORDS)}(self, context):  # calls ", None, None),
            (g.choice(IDENTS), None, "identifier"),
        )
    elif kind < 9:  # prose
        words = [g.choice(WORDS) for _ in range(g.randrange(8, 20))]
        b.line((" ".join(words).capitalize() + ".", None, None))
    else:  # git and file references
        choice = g.randrange(4)
        if choice == 0:
            b.line(("commit ", None, None), (r(g, HEX, 40), None, "commit_sha"))
        elif choice == 1:
            b.line(
                ("modified:   ", None, None),
                (f"src/{g.choice(WORDS)}/{g.choice(WORDS)}.py", None, "relative_path"),
            )
        elif choice == 2:
            b.line(
                ("Released ", None, None),
                (f"v{g.randrange(10)}.{g.randrange(30)}.{g.randrange(30)}", None, "version"),
            )
        else:
            b.line(
                ("color: ", None, None), ("#" + r(g, HEX, 6), None, "css_color"), (";", None, None)
            )


def make_corpus(megabytes: float, seed: int, secret_every: int = 40) -> Corpus:
    g = random.Random(seed)
    b = Builder(g)
    target = int(megabytes * 1_000_000)
    shapes = sorted(SECRETS)
    n = 0
    while b.size < target:
        n += 1
        if n % secret_every == 0:
            if n % (secret_every * 25) == 0:
                lines = pem(g)
                b.line(("-----BEGIN RSA PRIVATE KEY-----", "pem", None))
                for ln in lines:
                    b.line((ln, "pem", None))
                b.line(("-----END RSA PRIVATE KEY-----", "pem", None))
                continue
            shape = shapes[(n // secret_every) % len(shapes)]
            prefix, secret, suffix = SECRETS[shape](g)
            b.line((prefix, None, None), (secret, shape, None), (suffix, None, None))
        else:
            background(b, g)
    return b.build()


# --- scoring ------------------------------------------------------------------------


def merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def score(corpus: Corpus, masks: list[tuple[int, int]]) -> dict[str, Any]:
    """Recall, precision and near-miss preservation of merged ``masks``."""
    import bisect

    starts = [s for s, _ in masks]

    def covered(s: int, e: int) -> bool:
        i = bisect.bisect_right(starts, s) - 1
        return i >= 0 and masks[i][0] <= s and masks[i][1] >= e

    def touched(s: int, e: int) -> bool:
        i = bisect.bisect_right(starts, e - 1) - 1
        return i >= 0 and masks[i][1] > s

    # A PEM block counts as one secret: every line of it must be masked.
    by_secret: dict[tuple[str, int], bool] = {}
    pem_block = 0
    for s, e, shape in corpus.secrets:
        if shape == "pem" and corpus.text.startswith("-----BEGIN", s):
            pem_block += 1
        key = (shape, pem_block if shape == "pem" else s)
        by_secret[key] = by_secret.get(key, True) and covered(s, e)
    missed: dict[str, int] = {}
    for (shape, _), ok in by_secret.items():
        if not ok:
            missed[shape] = missed.get(shape, 0) + 1
    secret_spans = merge((s, e) for s, e, _ in corpus.secrets)
    sstarts = [s for s, _ in secret_spans]

    def hits_secret(s: int, e: int) -> bool:
        i = bisect.bisect_right(sstarts, e - 1) - 1
        return i >= 0 and secret_spans[i][1] > s

    true_masks = sum(1 for s, e in masks if hits_secret(s, e))
    kept = sum(1 for s, e, _ in corpus.near if not touched(s, e))
    return {
        "planted": len(by_secret),
        "recall": round(sum(by_secret.values()) / len(by_secret), 4),
        "missed_by_shape": dict(sorted(missed.items())),
        "masks": len(masks),
        "precision": round(true_masks / len(masks), 4) if masks else 0.0,
        "near_misses": len(corpus.near),
        "near_misses_kept": round(kept / len(corpus.near), 4) if corpus.near else 1.0,
    }


def line_masks(text: str, findings: Iterable[tuple[int, str]]) -> list[tuple[int, int]]:
    """Every occurrence of each (line number, value) finding within its line (1-based)."""
    starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            starts.append(i + 1)
    spans: list[tuple[int, int]] = []
    for lineno, value in findings:
        if not value or lineno < 1 or lineno > len(starts):
            continue
        ls = starts[lineno - 1]
        le = text.find("\n", ls)
        le = len(text) if le == -1 else le
        i = text.find(value, ls, le)
        while i != -1:
            spans.append((i, i + len(value)))
            i = text.find(value, i + len(value), le)
    return merge(spans)


# --- the contenders -------------------------------------------------------------------


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best = float("inf")
    result: Any = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run(megabytes: float, seed: int, repeat: int) -> dict[str, Any]:
    from detect_secrets.core.scan import scan_file, scan_line
    from detect_secrets.settings import transient_settings

    from vibflow.steps.redaction import redact_text
    from vibflow.steps.redaction.secrets import (
        DETECT_SECRETS_PLUGINS,
        collapse_whitespace,
        find_secrets,
    )

    corpus = make_corpus(megabytes, seed)
    text = corpus.text
    assert collapse_whitespace(text) == text  # offsets of planted values stay valid
    mb = len(text.encode()) / 1e6
    redact_text("warm up AKIAQ7FAKEX3M9ZP2LT4", max_chars=10**9)  # build the scanner once
    results: dict[str, Any] = {}

    t_ours, red = timed(lambda: redact_text(text, max_chars=10**10), repeat)
    t_spans, spans = timed(lambda: find_secrets(text), repeat)
    ours_masks = merge((sp.start, sp.end) for sp in spans)
    out = red.value
    # Output-level check of the whole contract: planted values gone, near-misses intact.
    planted = {text[s:e] for s, e, shape in corpus.secrets if shape != "pem"}
    planted |= {text[s:e] for s, e, shape in corpus.secrets if shape == "pem" and e - s > 40}
    tokens = set(re.split(r"[\s=;,\"']+", out))
    near_values = [text[s:e] for s, e, _ in corpus.near]
    results["vibflow_redact_text"] = {
        "seconds": round(t_ours, 3),
        "mb_per_s": round(mb / t_ours, 3),
        "secret_hits": red.counts.secret_hits,
        "privacy_hits": red.counts.privacy_hits,
        "planted_values_in_output": sum(1 for v in planted if v in out),
        "recall": round(sum(1 for v in planted if v not in out) / len(planted), 4),
        "near_misses_kept": round(sum(1 for v in near_values if v in tokens) / len(near_values), 4),
    }
    results["vibflow_secrets_only"] = {
        "seconds": round(t_spans, 3),
        "mb_per_s": round(mb / t_spans, 3),
        **score(corpus, ours_masks),
    }

    plugins = {"plugins_used": [{"name": n} for n in DETECT_SECRETS_PLUGINS]}
    lines = text.split("\n")
    with transient_settings(plugins):
        list(scan_line("warm up AKIAQ7FAKEX3M9ZP2LT4"))

        def by_line() -> list[tuple[int, str]]:
            found: list[tuple[int, str]] = []
            for n, line in enumerate(lines, start=1):
                found.extend((n, s.secret_value or "") for s in scan_line(line))
            return found

        t_line, line_found = timed(by_line, repeat)
    results["detect_secrets_scan_line"] = {
        "seconds": round(t_line, 3),
        "mb_per_s": round(mb / t_line, 3),
        **score(corpus, line_masks(text, line_found)),
    }

    with tempfile.TemporaryDirectory() as tmp:  # detect-secrets' file mode needs a file
        target = Path(tmp) / "mixed.txt"
        target.write_text(text, encoding="utf-8")
        with transient_settings(plugins):
            t_file, file_found = timed(
                lambda: [(s.line_number, s.secret_value or "") for s in scan_file(str(target))],
                repeat,
            )
    results["detect_secrets_scan_file"] = {
        "seconds": round(t_file, 3),
        "mb_per_s": round(mb / t_file, 3),
        **score(corpus, line_masks(text, file_found)),
    }

    ours = results["vibflow_redact_text"]["mb_per_s"]
    recall = results["vibflow_secrets_only"]["recall"]
    verdict = {}
    for name in ("detect_secrets_scan_line", "detect_secrets_scan_file"):
        ratio = ours / results[name]["mb_per_s"]
        verdict[name] = {
            "throughput_ratio": round(ratio, 2),
            "recall_vs": f"{recall} vs {results[name]['recall']}",
            "goal_met": ratio >= GOAL_RATIO and recall >= results[name]["recall"],
        }
    return {
        "benchmark": "redaction_throughput",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "detect_secrets": _version("detect-secrets"),
        "megabytes": round(mb, 3),
        "lines": len(lines),
        "planted_secrets": len({(sh, s) for s, _, sh in corpus.secrets if sh != "pem"})
        + sum(1 for s, _, sh in corpus.secrets if sh == "pem" and text.startswith("-----B", s)),
        "planted_near_misses": len(corpus.near),
        "seed": seed,
        "repeat": repeat,
        "results": results,
        "verdict": verdict,
    }


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def render(report: dict[str, Any]) -> str:
    rows = [
        f"redaction throughput — {report['megabytes']} MB, {report['lines']} lines, "
        f"{report['planted_secrets']} planted secrets, {report['planted_near_misses']} near-misses",
        f"{'contender':<28}{'MB/s':>9}{'recall':>9}{'precision':>11}{'near kept':>11}",
    ]
    for name, res in report["results"].items():
        nan = float("nan")
        rows.append(
            f"{name:<28}{res['mb_per_s']:>9.3f}{res.get('recall', nan):>9.3f}"
            f"{res.get('precision', nan):>11.3f}{res.get('near_misses_kept', nan):>11.3f}"
        )
    for name, res in report["results"].items():
        if res.get("missed_by_shape"):
            rows.append(f"  {name} missed: {res['missed_by_shape']}")
    for name, v in report["verdict"].items():
        rows.append(
            f"vs {name}: {v['throughput_ratio']}x throughput, recall {v['recall_vs']}, "
            f"goal {'met' if v['goal_met'] else 'NOT met'}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=5.0, help="size of the mixed text (MB)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=1, help="best of N timings per contender")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run(args.mb, args.seed, args.repeat)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0 if all(v["goal_met"] for v in report["verdict"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
