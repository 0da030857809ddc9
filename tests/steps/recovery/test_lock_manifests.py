"""A lockfile follows its manifest: drift with a manifest change nobody asked for
(restored together), regenerated when a manifest it covers is in the zone or
none changed; the user's word and explicit files still win."""

from __future__ import annotations

from vibflow_testing.recovery_inputs import changed

from vibflow.steps.recovery.lock_manifests import follows_drift, manifests_of
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone


def lock(path: str) -> ChangedFile:
    return changed(path).model_copy(update={"lockfile": True})


def test_a_lockfile_covers_its_own_folders_manifests_and_a_workspace_below() -> None:
    """Gemfile.lock covers Gemfile and a gemspec beside it, not a nested one; a pnpm
    lock at the root covers every package's package.json; go.sum only its go.mod."""
    paths = ["Gemfile", "gems/x/x.gemspec", "app.gemspec", "web/package.json", "go.mod"]
    assert manifests_of("Gemfile.lock", paths) == ["Gemfile", "app.gemspec"]
    assert manifests_of("pnpm-lock.yaml", ["web/package.json", "package.json"]) == [
        "package.json",
        "web/package.json",
    ]
    assert manifests_of("svc/go.sum", ["go.mod", "svc/go.mod"]) == ["svc/go.mod"]
    assert manifests_of("unknown.lock", paths) == []


def test_it_follows_only_when_every_manifest_it_covers_is_drift() -> None:
    """All covered manifests drift → the lockfile follows them; one in scope or
    none changed → it does not."""
    paths = ["package.json", "web/package.json", "src/a.ts"]
    assert follows_drift("yarn.lock", paths, {"package.json", "web/package.json"}) == [
        "package.json",
        "web/package.json",
    ]
    assert follows_drift("yarn.lock", paths, {"package.json"}) == []
    assert follows_drift("yarn.lock", ["src/a.ts"], {"src/a.ts"}) == []


def plan(
    explicit: dict[str, str], files: list[ChangedFile], corrections: dict[str, str] | None = None
) -> list[str]:
    memory = MemorySignals(explicit, [], True, corrections=corrections or {})
    zone = infer_zone(files, memory, {})
    return sorted(d.path for d in drift(files, zone, memory, {}))


def test_a_bump_nobody_asked_for_takes_its_lockfile_along() -> None:
    """The Gemfile bump is drift, so Gemfile.lock is drift with it, saying why."""
    files = [changed("app/export.rb"), changed("Gemfile"), lock("Gemfile.lock")]
    memory = MemorySignals({"app/export.rb": ""}, [], True)
    zone = infer_zone(files, memory, {})
    found = {d.path: d for d in drift(files, zone, memory, {})}
    assert sorted(found) == ["Gemfile", "Gemfile.lock"]
    assert "rewritten for 'Gemfile', which is drift" in found["Gemfile.lock"].why_outside_zone


def test_a_manifest_in_scope_or_a_user_word_keeps_the_lockfile_regenerated() -> None:
    """Gemfile explicit → the lockfile is no drift; the user said the lockfile is in
    scope → no drift either; no manifest changed → regenerated."""
    files = [changed("app/export.rb"), changed("Gemfile"), lock("Gemfile.lock")]
    assert plan({"app/export.rb": "", "Gemfile": ""}, files) == []
    assert "Gemfile.lock" not in plan({"app/export.rb": ""}, files, {"Gemfile.lock": "in_scope"})
    assert plan({"app/export.rb": ""}, [changed("app/export.rb"), lock("Gemfile.lock")]) == []
