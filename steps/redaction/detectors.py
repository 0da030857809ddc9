"""detect-secrets' detectors, configured once and run in memory over text blocks.

detect-secrets is the scanner (DESIGN §2); this module drives its plugins
without the parts of the library that bite (DESIGN §4.7):

* Its settings are a process-global, non-thread-safe cache, and
  ``BasePlugin.analyze_line`` reads it on every match — and calls vendor APIs
  when the verification filter is on. We never touch those settings: the
  plugin instances are built once (:class:`Detectors`) and only their
  ``analyze_string`` — which never verifies — is called.
* ``scan_line`` searches eagerly and then skips the entropy limit, so every
  word becomes a "secret". We find candidate tokens ourselves and re-check
  them with the plugin's own ``calculate_shannon_entropy`` and limit.
* The keyword detector only catches unquoted ``password=...`` for config-like
  file types, so it is handed the config regex table (and the quoted one).
* A finding carries a value, not a span, and some detectors match only part
  of a key (a JWT without its signature, the ``ghp`` of a GitHub token):
  each value is located in its line and widened to the whole token.

A plugin runs only on the lines its gate finds (:mod:`.patterns`): the gates
are supersets of the plugins' own patterns, so gating changes speed, never
results. detect-secrets' own false-positive filters are applied as its scan
applies them; its allowlist pragma is not (text an agent wrote could carry it).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from vibflow.steps.redaction.offline import without_network_client
from vibflow.steps.redaction.patterns import (
    EXTRAS,
    WORD,
    Gate,
    in_hash_context,
    in_uuid,
    in_vibflow_id,
    is_reference,
    keyword_value,
    lines_at,
    literals,
    looks_like_words,
    widen,
)

if TYPE_CHECKING:
    from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector
    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
    from detect_secrets.plugins.keyword import KeywordDetector

# detect-secrets secret types -> the short kind written in the placeholder.
# Kinds avoid the keyword detector's words (password, secret, private_key, ...)
# so a placeholder can never look like an assignment to a second pass.
KINDS: dict[str, str] = {
    "Artifactory Credentials": "artifactory_token",
    "AWS Access Key": "aws_key",
    "Azure Storage Account access key": "azure_storage_key",
    "Basic Auth Credentials": "url_credentials",
    "Cloudant Credentials": "cloudant_token",
    "Discord Bot Token": "discord_token",
    "GitHub Token": "github_token",
    "GitLab Token": "gitlab_token",
    "IBM Cloud IAM Key": "ibm_iam_token",
    "IBM COS HMAC Credentials": "ibm_cos_hmac",
    "JSON Web Token": "jwt",
    "Mailchimp Access Key": "mailchimp_token",
    "NPM tokens": "npm_token",
    "OpenAI Token": "openai_token",
    "PyPI Token": "pypi_token",
    "SendGrid API Key": "sendgrid_token",
    "Slack Token": "slack_token",
    "SoftLayer Credentials": "softlayer_token",
    "Square OAuth Secret": "square_oauth",
    "Stripe Access Key": "stripe_key",
    "Telegram Bot Token": "telegram_token",
    "Twilio API Key": "twilio_token",
    "Secret Keyword": "credential",
    "Base64 High Entropy String": "high_entropy",
    "Hex High Entropy String": "high_entropy_hex",
    "Private Key": "pem_key",
}
# The detect-secrets plugins run here (PrivateKeyDetector through our own block
# pattern). The benchmark runs detect-secrets itself with exactly these.
DETECT_SECRETS_PLUGINS = (
    "ArtifactoryDetector",
    "AWSKeyDetector",
    "AzureStorageKeyDetector",
    "BasicAuthDetector",
    "CloudantDetector",
    "DiscordBotTokenDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "IbmCloudIamDetector",
    "IbmCosHmacDetector",
    "JwtTokenDetector",
    "MailchimpDetector",
    "NpmDetector",
    "OpenAIDetector",
    "PypiTokenDetector",
    "SendGridDetector",
    "SlackDetector",
    "SoftlayerDetector",
    "SquareOAuthDetector",
    "StripeDetector",
    "TelegramBotTokenDetector",
    "TwilioKeyDetector",
    "KeywordDetector",
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "PrivateKeyDetector",
)
# Built-in plugins deliberately not run: a public IPv4 address is not a secret
# (private ones are the privacy filter's job).
EXCLUDED_PLUGINS = frozenset({"IPPublicDetector"})

# Gates for the plugins whose own patterns are slow to search (a leading class,
# lookbehind or IGNORECASE). Each is implied by every match of the plugin.
_ASSIGNMENT_WORDS = ("key", "pw", "pass", "token")  # build_assignment_regex keywords
_CUSTOM_GATES: dict[str, list[Gate]] = {
    "TelegramBotTokenDetector": [Gate(r":[0-9A-Za-z_-]{35}")],
    "ArtifactoryDetector": [Gate(r"AKC[a-zA-Z0-9]{10}"), Gate(r"AP[\dABCDEF][a-zA-Z0-9]{8}")],
    "AWSKeyDetector": [Gate(r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)"), literals("aws")],
    "CloudantDetector": [literals(*_ASSIGNMENT_WORDS, "cloudant")],
    "IbmCloudIamDetector": [literals(*_ASSIGNMENT_WORDS)],
    "IbmCosHmacDetector": [literals("secret")],
    "MailchimpDetector": [literals("-us", lowered=False)],
    "NpmDetector": [literals("_authtoken")],
    "SlackDetector": [literals("xox", "hooks.slack.com")],
    "SoftlayerDetector": [literals(*_ASSIGNMENT_WORDS, "softlayer")],
}
# Generic findings name a merged mask only when nothing more specific overlaps it.
RANK = {"credential": 1, "high_entropy": 2, "high_entropy_hex": 2}

Finding = tuple[int, int, str]  # start, end, kind


class Detectors:
    """The configured plugins; one instance per process, used under one lock."""

    def __init__(self) -> None:
        with without_network_client():
            from detect_secrets.filters import heuristic
            from detect_secrets.plugins import (
                artifactory,
                aws,
                azure_storage_key,
                basic_auth,
                cloudant,
                discord,
                github_token,
                gitlab_token,
                ibm_cloud_iam,
                ibm_cos_hmac,
                jwt,
                mailchimp,
                npm,
                openai,
                pypi_token,
                sendgrid,
                slack,
                softlayer,
                square_oauth,
                stripe,
                telegram_token,
                twilio,
            )
            from detect_secrets.plugins.high_entropy_strings import (
                Base64HighEntropyString,
                HexHighEntropyString,
            )
            from detect_secrets.plugins.keyword import (
                CONFIG_DENYLIST_REGEX_TO_GROUP,
                DENYLIST_REGEX,
                FOLLOWED_BY_ARROW_FUNCTION_SIGN_QUOTES_REQUIRED_REGEX,
                KeywordDetector,
            )

        classes: list[type[RegexBasedDetector]] = [
            artifactory.ArtifactoryDetector,
            aws.AWSKeyDetector,
            azure_storage_key.AzureStorageKeyDetector,
            basic_auth.BasicAuthDetector,
            cloudant.CloudantDetector,
            discord.DiscordBotTokenDetector,
            github_token.GitHubTokenDetector,
            gitlab_token.GitLabTokenDetector,
            ibm_cloud_iam.IbmCloudIamDetector,
            ibm_cos_hmac.IbmCosHmacDetector,
            jwt.JwtTokenDetector,
            mailchimp.MailchimpDetector,
            npm.NpmDetector,
            openai.OpenAIDetector,
            pypi_token.PypiTokenDetector,
            sendgrid.SendGridDetector,
            slack.SlackDetector,
            softlayer.SoftlayerDetector,
            square_oauth.SquareOAuthDetector,
            stripe.StripeDetector,
            telegram_token.TelegramBotTokenDetector,
            twilio.TwilioKeyDetector,
        ]
        self.regex_plugins: list[tuple[RegexBasedDetector, str, list[Gate]]] = []
        for cls in classes:
            plugin = cls()
            gates = _CUSTOM_GATES.get(cls.__name__) or [
                Gate(p.pattern) if not p.flags & re.IGNORECASE else Gate(p.pattern, lowered=True)
                for p in plugin.denylist
            ]
            self.regex_plugins.append((plugin, KINDS[plugin.secret_type], gates))
        self.keyword: KeywordDetector = KeywordDetector()
        # The config table (optional quotes: `password=x`, `password: "x"`, ...) plus
        # the one quoted-only shape it lacks (`password => "x"`), in one pass.
        self.keyword_table = {
            **CONFIG_DENYLIST_REGEX_TO_GROUP,
            FOLLOWED_BY_ARROW_FUNCTION_SIGN_QUOTES_REQUIRED_REGEX: 4,
        }
        self.keyword_gate = Gate(DENYLIST_REGEX, lowered=True)
        self.b64: HighEntropyStringsPlugin = Base64HighEntropyString()
        self.hex: HighEntropyStringsPlugin = HexHighEntropyString()
        # A string of n characters has entropy <= log2(n): shorter candidates
        # cannot pass the limit and are not even looked at. detect-secrets'
        # base64 charset, except that "=" only pads the end: a candidate never
        # swallows the `NAME=` in front of a value.
        self.b64_min = int(2**self.b64.entropy_limit) + 1
        self.hex_min = int(2**self.hex.entropy_limit) + 1
        self.b64_candidates = re.compile(
            r"(?=[A-Za-z0-9+/_-]{%d})[A-Za-z0-9+/_-]+={0,3}" % (self.b64_min - 3)  # noqa: UP031
        )
        self.hex_candidates = re.compile(
            r"(?<![A-Za-z0-9])[0-9a-fA-F]{%d,}(?![A-Za-z0-9])" % self.hex_min  # noqa: UP031
        )
        # For our own credential patterns: placeholders like ${X} or <x>, not "***".
        self._shape_filters: list[Callable[[str], bool]] = [
            heuristic.is_templated_secret,
            heuristic.is_prefixed_with_dollar_sign,
            heuristic.is_not_alphanumeric_string,
        ]
        self._value_filters: list[Callable[[str], bool]] = [
            heuristic.is_sequential_string,
            heuristic.is_potential_uuid,
            *self._shape_filters,
        ]
        self._likely_id: Callable[..., bool] = heuristic.is_likely_id_string

    def filtered(self, value: str, line: str, plugin: BasePlugin) -> bool:
        """detect-secrets' value filters, as its scan applies them to a finding."""
        return any(f(value) for f in self._value_filters) or self._likely_id(
            secret=value, line=line, plugin=plugin
        )

    def scan(self, seg: str, off: int, *, is_window: bool) -> tuple[list[Finding], dict[str, str]]:
        """Findings in one block of lines (or one window of a long line), offset by ``off``.

        Also returns the values worth masking wherever else they appear.
        """
        low = seg.lower() if seg.isascii() else None
        found: list[Finding] = []
        everywhere: dict[str, str] = {}
        self._extras(seg, low, off, found)
        self._regex_plugins(seg, low, off, found)
        self._keywords(seg, low, off, found, everywhere)
        self._entropy(seg, off, found, everywhere if not is_window else {})
        return found, everywhere

    def _extras(self, seg: str, low: str | None, off: int, found: list[Finding]) -> None:
        for extra in EXTRAS:
            if extra.gate is None:
                where = [(0, seg)]
            else:
                lines: dict[int, str] = {}
                lines_at(seg, extra.gate.starts(seg, low), lines)
                where = list(lines.items())
            for base, text in where:
                for m in extra.pattern.finditer(text):
                    if extra.word_start and m.start() > 0 and text[m.start() - 1] in WORD:
                        continue
                    value = m.group(extra.group)
                    if extra.check is not None and not extra.check(value):
                        continue
                    bare = value.strip("\"'")
                    if extra.generic and (
                        is_reference(bare) or any(f(bare) for f in self._shape_filters)
                    ):
                        continue
                    s, e = m.span(extra.group)
                    found.append((off + base + s, off + base + e, extra.kind))

    def _regex_plugins(self, seg: str, low: str | None, off: int, found: list[Finding]) -> None:
        for plugin, kind, gates in self.regex_plugins:
            lines: dict[int, str] = {}
            for gate in gates:
                lines_at(seg, gate.starts(seg, low), lines)
            for start, line in lines.items():
                for raw in set(plugin.analyze_string(line)):
                    value = raw.strip(" \t\"'=:")
                    if not value or self.filtered(value, line, plugin):
                        continue
                    for hit_start, hit_end in _find_all(line, value):
                        s, e = widen(line, hit_start, hit_end, dots=kind == "jwt")
                        found.append((off + start + s, off + start + e, kind))

    def _keywords(
        self,
        seg: str,
        low: str | None,
        off: int,
        found: list[Finding],
        everywhere: dict[str, str],
    ) -> None:
        lines: dict[int, str] = {}
        lines_at(seg, self.keyword_gate.starts(seg, low), lines)
        for start, line in lines.items():
            keywords = list(
                self.keyword_gate.starts(line, line.lower() if line.isascii() else None)
            )
            done_to = -1
            # detect-secrets reports one value per pattern and line, so each later
            # keyword on the line (`USER=a PASSWORD=b SECRET=c`) gets its own look.
            for i, at in enumerate(keywords[:KEYWORDS_PER_LINE]):
                if at < done_to:
                    continue
                base = 0 if i == 0 else at
                part = line if i == 0 else line[at : at + LATER_KEYWORD_SPAN]
                values = set(self.keyword.analyze_string(part, self.keyword_table))
                for raw in values:
                    hit = keyword_value(part, raw, at - base)
                    if hit is None:
                        continue
                    s, e = base + hit[0], base + hit[1]
                    value = line[s:e]
                    done_to = max(done_to, e)
                    if self.filtered(value, line, self.keyword):
                        continue
                    found.append((off + start + s, off + start + e, "credential"))
                    if len(value) >= GLOBAL_MIN:
                        everywhere.setdefault(value, "credential")

    def _entropy(
        self, seg: str, off: int, found: list[Finding], everywhere: dict[str, str]
    ) -> None:
        for plugin, candidates, distinct, kind in (
            (self.b64, self.b64_candidates, self.b64_min, "high_entropy"),
            (self.hex, self.hex_candidates, self.hex_min, "high_entropy_hex"),
        ):
            for m in candidates.finditer(seg):
                token = m.group()
                counts = Counter(token)
                if len(counts) < distinct:
                    continue  # too few distinct characters to pass the limit
                # The plugin's entropy is this same sum (hex's only lower): a
                # cheap upper bound first, the plugin's exact value second.
                n = len(token)
                if -sum(c / n * math.log2(c / n) for c in counts.values()) <= plugin.entropy_limit:
                    continue
                if plugin.calculate_shannon_entropy(token) <= plugin.entropy_limit:
                    continue
                line_start = seg.rfind("\n", 0, m.start()) + 1
                line = _line_of(seg, m.start())
                s, e = m.start() - line_start, m.end() - line_start
                if (
                    self.filtered(token, line, plugin)
                    or in_uuid(line, s, e)
                    or in_vibflow_id(line, s, e)
                    or (kind == "high_entropy" and looks_like_words(token))
                    or in_hash_context(line, s, e, hex_token=kind == "high_entropy_hex")
                ):
                    continue
                found.append((off + m.start(), off + m.end(), kind))
                everywhere.setdefault(token, kind)


# Keyword occurrences looked at per line, and how much of the line after a later
# one is handed to the detector (bounds for pathological lines).
KEYWORDS_PER_LINE = 16
LATER_KEYWORD_SPAN = 1024
# A keyword value shorter than this is masked where it was found, not everywhere
# (masking every "admin" in a text because of `password=admin` would be noise).
GLOBAL_MIN = 6


def _line_of(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start : end if end != -1 else len(text)]


def _find_all(line: str, value: str) -> list[tuple[int, int]]:
    out = []
    i = line.find(value)
    while i != -1:
        out.append((i, i + len(value)))
        i = line.find(value, i + len(value))
    return out
