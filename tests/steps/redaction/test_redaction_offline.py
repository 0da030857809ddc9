"""detect-secrets loads without `requests`: its verify() can never reach the network,
the real library stays importable, and what is found does not change."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from vibflow.steps.redaction import offline


def in_fresh_process(code: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


@pytest.mark.cli
def test_building_the_detectors_loads_no_http_client_and_verify_refuses() -> None:
    """After the detectors are built, `requests` is not loaded; a plugin's verify call
    raises instead of sending the key anywhere."""
    seen = in_fresh_process(
        """
        import json, sys
        from vibflow.steps.redaction.secrets import find_secrets
        from vibflow.steps.redaction.offline import VerificationRefused
        spans = find_secrets("token ghp_" + "a1B2c3D4" * 4 + "x9Z8y7W6v5U4")
        from detect_secrets.plugins import github_token, ibm_cloud_iam
        try:
            ibm_cloud_iam.verify_cloud_iam_api_key("not-a-key")
            refused = False
        except VerificationRefused:
            refused = True
        print(json.dumps({
            "found": len(spans) > 0,
            "loaded": sorted(m for m in ("requests", "urllib3") if m in sys.modules),
            "refused": refused,
        }))
        """
    )
    assert seen == {"found": True, "loaded": [], "refused": True}


@pytest.mark.cli
def test_a_later_import_of_requests_gets_the_real_library() -> None:
    """The stand-in is only seen by detect-secrets' modules: `import requests` afterwards
    in the same process is the real one."""
    seen = in_fresh_process(
        """
        import json
        from vibflow.steps.redaction.secrets import detectors
        detectors()
        import requests
        print(json.dumps({"real": hasattr(requests, "__version__"),
                          "session": hasattr(requests, "Session")}))
        """
    )
    assert seen == {"real": True, "session": True}


@pytest.mark.cli
def test_when_requests_is_loaded_already_nothing_is_replaced() -> None:
    """A process that imported `requests` first keeps it, detect-secrets included."""
    seen = in_fresh_process(
        """
        import json
        import requests
        from vibflow.steps.redaction.secrets import detectors
        detectors()
        from detect_secrets.plugins import base
        print(json.dumps({"same": base.requests is requests}))
        """
    )
    assert seen == {"same": True}


def test_the_stand_in_refuses_every_verb() -> None:
    """Every request method of the stand-in raises VerificationRefused."""
    client = offline.stand_in()["requests"]
    for verb in ("request", "get", "post", "put", "patch", "delete", "head", "options"):
        with pytest.raises(offline.VerificationRefused):
            getattr(client, verb)("https://example.invalid")
    exceptions = offline.stand_in()["requests.exceptions"]
    assert issubclass(exceptions.RequestException, OSError)  # type: ignore[attr-defined]


@pytest.mark.cli
def test_the_block_gives_the_name_back_even_when_an_import_fails() -> None:
    """An error inside the block still leaves `requests` unclaimed afterwards."""
    seen = in_fresh_process(
        """
        import json, sys
        from vibflow.steps.redaction.offline import without_network_client
        try:
            with without_network_client():
                import requests as inside
                raise ImportError("boom")
        except ImportError:
            pass
        print(json.dumps({"left": "requests" in sys.modules,
                          "was_stand_in": not hasattr(inside, "__version__")}))
        """
    )
    assert seen == {"left": False, "was_stand_in": True}
