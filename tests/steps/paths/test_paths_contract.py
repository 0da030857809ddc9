"""The path contract's behaviour beyond single rejections: case-only collisions,
Unicode normalization, absolute and WSL inputs, symlinks inside the project, the
``paths`` policy section, and properties that hold for any text at all."""

from __future__ import annotations

import ast
import os
import unicodedata
from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing import ROOT

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.policy import PolicySet
from vibflow.steps.paths import (
    DEFAULT_POLICY,
    PathPolicy,
    PathRejected,
    PathRule,
    ProjectPath,
    canonicalize,
    canonicalize_many,
    path_policy,
)
from vibflow.steps.paths.policy import DEFAULT_GENERATED

STEPS_PATHS = ROOT / "steps" / "paths"
NFD_HANGUL = unicodedata.normalize("NFD", "\ud55c\uae00")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder with a few files, a folder link and a file link inside it."""
    base = Path(os.path.realpath(tmp_path_factory.mktemp("contract")))
    project = base / "project"
    for folder in ["src/ui", "docs", ".git", "node_modules/pkg"]:
        (project / folder).mkdir(parents=True)
    for file in ["src/a.py", "src/App.tsx", "docs/guide.md"]:
        (project / file).write_text("x\n", encoding="utf-8")
    (project / "inside_link").symlink_to("src")
    (project / "inside_file_link").symlink_to("src/a.py")
    (project / "escape_dir").symlink_to(base)
    (base / "alias").symlink_to(project)
    return project


def rule_of(
    raw: str, root: Path, *, policy: PathPolicy = DEFAULT_POLICY, allow_absolute: bool = False
) -> PathRule:
    with pytest.raises(PathRejected) as info:
        canonicalize(raw, root, policy=policy, allow_absolute=allow_absolute)
    return info.value.rule


# --- case-only collisions and Unicode -----------------------------------------------------


def test_case_only_collision_among_selected_paths_needs_review(root: Path) -> None:
    """src/App.tsx and src/app.tsx in one selection are both accepted but marked for review."""
    first, second = canonicalize_many(["src/App.tsx", "src/app.tsx"], root)
    assert (first.relative, second.relative) == ("src/App.tsx", "src/app.tsx")
    assert first.needs_review
    assert second.needs_review
    assert first.review_reason is not None
    assert "'src/app.tsx'" in first.review_reason
    assert second.review_reason is not None
    assert "'src/App.tsx'" in second.review_reason
    assert "letter case" in first.review_reason


def test_case_only_collision_with_a_tracked_file_needs_review(root: Path) -> None:
    """A path that differs from a tracked file only in case is flagged, naming the tracked one."""
    path = canonicalize("src/app.tsx", root, existing=["src/App.tsx", "docs/guide.md"])
    assert path.needs_review
    assert path.review_reason == "differs only in letter case from the tracked path 'src/App.tsx'"
    many = canonicalize_many(["src/app.tsx"], root, existing=["src/App.tsx"])
    assert many[0].needs_review


def test_case_only_collision_of_a_parent_folder_needs_review(root: Path) -> None:
    """SRC/new.ts collides with a tracked src/ folder on a case-insensitive volume."""
    path = canonicalize("SRC/new.ts", root, existing=["src/a.py"])
    assert path.needs_review
    assert path.review_reason is not None
    assert "'src'" in path.review_reason


def test_same_path_twice_or_exact_tracked_match_is_not_a_collision(root: Path) -> None:
    """Repeating a path, or naming a tracked file exactly, needs no review."""
    paths = canonicalize_many(["src/a.py", "./src/a.py"], root, existing=["src/a.py"])
    assert [p.relative for p in paths] == ["src/a.py", "src/a.py"]
    assert not any(p.needs_review for p in paths)


def test_nfc_and_nfd_spellings_are_the_same_path(root: Path) -> None:
    """NFC and NFD input give one NFC relative path; neither collides with the other."""
    nfc = canonicalize("src/ui/\ud55c\uae00.tsx", root)
    nfd = canonicalize(f"src/ui/{NFD_HANGUL}.tsx", root)
    assert nfc.relative == nfd.relative == "src/ui/\ud55c\uae00.tsx"
    both = canonicalize_many(
        ["src/ui/\ud55c\uae00.tsx", f"src/ui/{NFD_HANGUL}.tsx"],
        root,
        existing=[f"src/ui/{NFD_HANGUL}.tsx"],  # git on a Mac may report the NFD bytes
    )
    assert not any(p.needs_review for p in both)


def test_nfd_name_on_disk_is_found_by_nfc_input(tmp_path: Path) -> None:
    """A file stored in NFD is found from NFC input: relative is NFC, absolute is the disk name."""
    disk_name = unicodedata.normalize("NFD", "caf\u00e9.md")
    (tmp_path / disk_name).write_text("x\n", encoding="utf-8")
    path = canonicalize("caf\u00e9.md", tmp_path)
    assert path.relative == "caf\u00e9.md"
    assert path.absolute.name == disk_name
    assert path.absolute.exists()
    assert not path.needs_review


def test_two_disk_spellings_of_one_nfc_name_need_review(tmp_path: Path) -> None:
    """Two names on disk that are one name under NFC cannot be told apart: review."""
    for spelling in ("a\u0323\u0302.txt", "a\u0302\u0323.txt"):
        (tmp_path / spelling).write_text("x\n", encoding="utf-8")
    path = canonicalize(unicodedata.normalize("NFC", "a\u0323\u0302.txt"), tmp_path)
    assert path.needs_review
    assert path.review_reason is not None
    assert "Unicode normalization" in path.review_reason


# --- absolute, Windows and WSL input -------------------------------------------------------


def test_absolute_input_needs_allow_absolute_and_becomes_relative(root: Path) -> None:
    """An absolute path is refused by default and converted to relative for the trusted CLI."""
    raw = f"{root}/src/a.py"
    with pytest.raises(PathRejected) as info:
        canonicalize(raw, root)
    assert info.value.rule is PathRule.ABSOLUTE_NOT_ALLOWED
    assert str(root) not in str(info.value)
    path = canonicalize(raw, root, allow_absolute=True)
    assert path.relative == "src/a.py"
    assert path.was_absolute_input
    assert path.absolute == root / "src" / "a.py"


def test_absolute_input_through_a_link_to_the_project_is_inside(root: Path) -> None:
    """Symlinks are resolved before containment: <alias-of-project>/src/a.py is inside."""
    alias = root.parent / "alias"
    path = canonicalize(f"{alias}/src/a.py", root, allow_absolute=True)
    assert path.relative == "src/a.py"
    assert path.absolute == root / "src" / "a.py"


def test_windows_drive_maps_to_a_wsl_mounted_project() -> None:
    """With the project at /mnt/c/..., C:\\... inside it converts (trusted CLI only)."""
    root = Path("/mnt/c/vibflow-test-absent/proj")
    assert not root.exists()
    for raw in [
        "C:\\vibflow-test-absent\\proj\\src\\a.py",
        "c:/VIBFLOW-TEST-ABSENT/Proj/src/a.py",  # Windows paths ignore case
        "/mnt/c/vibflow-test-absent/proj/src/a.py",
        "\\\\wsl$\\Ubuntu\\mnt\\c\\vibflow-test-absent\\proj\\src\\a.py",
    ]:
        path = canonicalize(raw, root, allow_absolute=True)
        assert (path.relative, path.was_absolute_input) == ("src/a.py", True), raw
    assert rule_of("C:\\vibflow-test-absent\\proj\\a.py", root) is PathRule.ABSOLUTE_NOT_ALLOWED
    assert rule_of("D:\\vibflow-test-absent\\proj\\a.py", root, allow_absolute=True) is (
        PathRule.OUT_OF_ROOT
    )
    assert rule_of("C:\\other\\a.py", root, allow_absolute=True) is PathRule.OUT_OF_ROOT
    assert rule_of("/mnt/c/other/a.py", root, allow_absolute=True) is PathRule.WSL_FOREIGN


def test_wsl_unc_path_maps_to_the_project(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """\\\\wsl$\\<distro>\\<project>\\... converts when trusted and the distro is ours."""
    monkeypatch.delenv("WSL_DISTRO_NAME", raising=False)
    windows_root = str(root).replace("/", "\\")
    for host in ("wsl$", "wsl.localhost"):
        raw = f"\\\\{host}\\Ubuntu{windows_root}\\src\\a.py"
        assert canonicalize(raw, root, allow_absolute=True).relative == "src/a.py"
        assert rule_of(raw, root) is PathRule.ABSOLUTE_NOT_ALLOWED
    raw = f"\\\\wsl$\\Ubuntu{windows_root}\\src\\a.py"
    monkeypatch.setenv("WSL_DISTRO_NAME", "ubuntu")
    assert canonicalize(raw, root, allow_absolute=True).relative == "src/a.py"
    monkeypatch.setenv("WSL_DISTRO_NAME", "Debian")
    assert rule_of(raw, root, allow_absolute=True) is PathRule.WSL_FOREIGN


# --- symlinks inside the project ----------------------------------------------------------


def test_path_through_a_folder_link_is_stored_under_the_real_folder(root: Path) -> None:
    """inside_link/a.py (inside_link -> src) is stored as src/a.py, as git tracks it."""
    path = canonicalize("inside_link/a.py", root)
    assert path.relative == "src/a.py"
    assert path.absolute == root / "src" / "a.py"


def test_naming_a_file_link_names_the_link_itself(root: Path) -> None:
    """A link whose target stays inside keeps its own name, so a restore rewrites the link."""
    path = canonicalize("inside_file_link", root)
    assert path.relative == "inside_file_link"
    assert path.absolute.is_symlink()


def test_symlink_escape_of_a_new_file_under_an_escaping_folder(root: Path) -> None:
    """A file that does not exist yet is still refused when its parent link leads outside."""
    assert rule_of("escape_dir/project/new.txt", root) is PathRule.SYMLINK_ESCAPE


# --- generated outputs --------------------------------------------------------------------


def test_folder_patterns_match_folders_not_files(tmp_path: Path) -> None:
    """`build/` refuses a build folder but accepts a script called build."""
    (tmp_path / "build").write_text("#!/bin/sh\n", encoding="utf-8")
    (tmp_path / "dist").mkdir()
    assert canonicalize("build", tmp_path).relative == "build"
    assert rule_of("dist", tmp_path) is PathRule.GENERATED
    assert rule_of("dist/", tmp_path) is PathRule.GENERATED
    assert rule_of("out/build/x.o", tmp_path) is PathRule.GENERATED


def test_allow_generated_accepts_generated_paths(root: Path) -> None:
    """A caller that explicitly allows generated output gets the path."""
    path = canonicalize("node_modules/pkg/index.js", root, allow_generated=True)
    assert path.relative == "node_modules/pkg/index.js"
    assert rule_of("node_modules/pkg/index.js", root) is PathRule.GENERATED


# --- the returned value and the error -----------------------------------------------------


def test_project_path_never_shows_its_absolute_path(root: Path) -> None:
    """repr, str and to_json of a ProjectPath carry only the relative path."""
    path = canonicalize(f"{root}/src/a.py", root, allow_absolute=True)
    for shown in (repr(path), str(path), str(path.to_json())):
        assert str(root) not in shown
    assert path.to_json() == {
        "relative_path": "src/a.py",
        "display_path": "src/a.py",
        "was_absolute_input": True,
        "needs_review": False,
        "review_reason": None,
    }


def test_path_rejected_is_bad_input_and_names_its_rule(root: Path) -> None:
    """PathRejected is a VibflowError with code BAD_INPUT (exit 2) and the rule in JSON."""
    with pytest.raises(PathRejected) as info:
        canonicalize("a/../b", root)
    exc = info.value
    assert isinstance(exc, VibflowError)
    assert exc.code is ErrorCode.BAD_INPUT
    assert exc.code.outcome == 2
    assert exc.to_json()["rule"] == "traversal"
    assert str(exc).startswith("path rejected (traversal): ")
    assert exc.hint


def test_canonicalize_many_keeps_order_and_stops_at_the_first_rejection(root: Path) -> None:
    """Results come back in input order; one bad path rejects the batch."""
    paths = canonicalize_many(["docs/guide.md", "src\\a.py"], root)
    assert [p.relative for p in paths] == ["docs/guide.md", "src/a.py"]
    with pytest.raises(PathRejected) as info:
        canonicalize_many(["docs/guide.md", ".git/config", "CON"], root)
    assert info.value.rule is PathRule.VCS_DIR


# --- properties over arbitrary text -------------------------------------------------------

TOKENS = [
    "/", "\\", "//", ".", "..", "...", ":", "C:", "c:\\", "\\\\", "\\\\?\\", "\\\\wsl$\\",
    "/mnt/c/", "~", " ", "CON", "nul", "COM\u00b9", ".git", "GIT~1", ".vibflow", "node_modules",
    "src", "a.py", "\u00e9", "e\u0301", "\ud55c", "\x00", "\n", "\u202e", "%2e", "\uff0e",
    "inside_link", "inside_file_link", "escape_dir", "*", "\ufeff", "\u200c",
]  # fmt: skip
PROPERTY = settings(
    max_examples=400,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(TOKENS), max_size=12).map("".join),
    st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)), max_size=10).map("/".join),
)


def _attempt(raw: str, root: Path, *, allow_absolute: bool) -> ProjectPath | PathRejected:
    try:
        return canonicalize(raw, root, allow_absolute=allow_absolute)
    except PathRejected as exc:
        return exc


def _inside(path: ProjectPath, root: Path) -> bool:
    real_root = os.path.realpath(root)
    return os.path.realpath(path.absolute).startswith(real_root + os.sep)


@PROPERTY
@given(raw=texts, absolute=st.booleans(), allow_absolute=st.booleans())
def test_any_text_is_rejected_or_lands_inside_the_project(
    root: Path, raw: str, absolute: bool, allow_absolute: bool
) -> None:
    """For any text: a PathRejected that hides the project's location, or a clean
    relative path whose real location is inside the project (and is a fixed point)."""
    if absolute:
        raw = f"{root}/{raw}"
    outcome = _attempt(raw, root, allow_absolute=allow_absolute)
    if isinstance(outcome, PathRejected):
        assert str(root) not in str(outcome)
        assert os.path.realpath(root) not in str(outcome)
        assert isinstance(outcome.rule, PathRule)
        return
    path = outcome
    segments = path.relative.split("/")
    assert not path.relative.startswith("/")
    assert "\\" not in path.relative
    assert ".." not in segments
    assert "" not in segments
    assert "." not in segments
    assert path.relative == unicodedata.normalize("NFC", path.relative)
    assert _inside(path, root)
    assert canonicalize(path.relative, root).relative == path.relative


# --- policy -------------------------------------------------------------------------------


def _policy(tmp_path: Path, text: str) -> PolicySet:
    user = tmp_path / ".vibflow" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(text, encoding="utf-8")
    return PolicySet(files("vibflow.policies"), user)


def test_shipped_paths_policy_loads_and_matches_the_code_default() -> None:
    """policies/paths.yaml loads through PolicySet and equals the built-in default."""
    policy = path_policy(PolicySet(files("vibflow.policies"), None))
    assert policy == DEFAULT_POLICY
    assert policy.generated == DEFAULT_GENERATED
    assert "node_modules/" in policy.generated


def test_user_policy_adds_a_generated_folder(tmp_path: Path) -> None:
    """extra_generated in .vibflow/policy.yaml adds to the shipped list without replacing it."""
    policy = path_policy(_policy(tmp_path, "paths:\n  extra_generated: [gen/, '*.gen.ts']\n"))
    assert rule_of("gen/api.ts", tmp_path, policy=policy) is PathRule.GENERATED
    assert rule_of("src/x.gen.ts", tmp_path, policy=policy) is PathRule.GENERATED
    assert rule_of("node_modules/x", tmp_path, policy=policy) is PathRule.GENERATED
    assert canonicalize("gen/api.ts", tmp_path).relative == "gen/api.ts"  # default policy


def test_user_policy_can_allow_a_shipped_entry_or_replace_the_list(tmp_path: Path) -> None:
    """allow: [build/] treats build/ as sources; a new generated list replaces the shipped one."""
    allowed = path_policy(_policy(tmp_path, "paths:\n  allow: [build/]\n"))
    assert canonicalize("build/x.py", tmp_path, policy=allowed).relative == "build/x.py"
    assert rule_of("dist/x.js", tmp_path, policy=allowed) is PathRule.GENERATED
    replaced = path_policy(_policy(tmp_path, "paths:\n  generated: [only/]\n"))
    assert canonicalize("node_modules/x", tmp_path, policy=replaced).relative == "node_modules/x"
    assert rule_of("only/x", tmp_path, policy=replaced) is PathRule.GENERATED


def test_user_policy_max_path_bytes(tmp_path: Path) -> None:
    """max_path_bytes bounds the relative path's UTF-8 length."""
    policy = path_policy(_policy(tmp_path, "paths:\n  max_path_bytes: 64\n"))
    assert rule_of("a/" * 40 + "b", tmp_path, policy=policy) is PathRule.TOO_LONG


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("paths:\n  extra_generated:\n    - ok/\n    - /abs/\n", 4),
        ("paths:\n  extra_generated: ['a\\\\b']\n", 2),
        ("paths:\n  generated: [x/../y/]\n", 2),
        ("paths:\n  allow: [nothing-like-it/]\n", 2),
        ("paths:\n  generatd: [x/]\n", 2),
    ],
)
def test_invalid_paths_policy_is_located(tmp_path: Path, body: str, line: int) -> None:
    """A bad pattern, an allow entry that matches nothing or a typo is reported at file:line."""
    with pytest.raises(VibflowError) as info:
        path_policy(_policy(tmp_path, body))
    assert info.value.code is ErrorCode.POLICY_INVALID
    assert info.value.location is not None
    assert (info.value.location.file, info.value.location.line) == (".vibflow/policy.yaml", line)


# --- shape --------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["windows.py", "review.py", "rules.py", "policy.py"])
def test_rule_modules_do_not_touch_the_filesystem(module: str) -> None:
    """The rule modules are pure: only resolve.py and contract.py may import os or pathlib."""
    tree = ast.parse((STEPS_PATHS / module).read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert not imported & {"os", "pathlib", "shutil", "subprocess", "io", "glob"}
