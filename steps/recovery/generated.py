"""Generated, vendored and build output, recognised the way ecosystems mark them.

Recovery must not call a regenerated API client "hundreds of drift
candidates", nor a Go service's compiled ``bin/`` output drift. The repository
itself says which files are machine-made, and each way of saying it is a rule
here, in this order (the first that applies gives the reason the plan shows):

1. the path policy's cache/build names (``paths.generated``: ``dist/``,
   ``node_modules/``, ``*.pyc`` …) — as the path contract already refuses them;
2. lockfiles (``package-lock.json``, ``go.sum`` …): *regenerated*, listed on
   their own line — not drift, not hidden, restored with a full rollback;
3. ``.gitattributes``: ``linguist-generated`` / ``linguist-vendored`` (read
   with ``git check-attr``, batched, so negation and nesting are git's own);
   a file the attributes mark *not* generated (``-linguist-generated`` or
   ``=false``) is left to the user, whatever rules 4-7 would say;
4. conventional folders (``__generated__/``, ``vendor/`` …);
5. build outputs of an ecosystem, recognised by the project file beside them
   (``bin/`` next to ``go.mod`` or a ``.csproj``, ``target/`` next to
   ``Cargo.toml`` …), tracked or not;
6. compiled objects by name (``*.o``, ``*.class``, ``*.dll`` …), and what a
   run leaves behind (``*.log``, ``erl_crash.dump``, ``coverage.xml``, a saved
   ``tfplan``);
7. a generated-code marker in the first lines (``Code generated … DO NOT
   EDIT.``, ``@generated`` …), believed when HEAD's copy of the file had one too
   (or there is none); a marker folder (``gen/``) counts as generated
   once one of its changed files carries a marker; and compiled programs by
   their first bytes (ELF, Mach-O, PE, Java class).

Reads are bounded: one ``check-attr`` for all paths (only when the project has
an attributes file on their way), at most ``marker_bytes`` of each file, one
directory listing per folder that holds a build-output candidate. Everything
is policy (``recovery.generated``), overridable per project; its ``allow``
globs outrank rules 3-7 (the attributes included), not the path policy.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery.brought import NOTHING, Brought
from vibflow.steps.recovery.compiled_magic import magic_kind
from vibflow.steps.recovery.evidence_text import head_blobs
from vibflow.steps.recovery.generated_names import (
    companion_sources,
    first_match,
    folder_hit,
    glob_matcher,
    is_glob,
    stubs_of,
)
from vibflow.steps.recovery.generated_policy import BuildOutput, GeneratedRules
from vibflow.steps.recovery.linguist import linguist_attributes
from vibflow.steps.recovery.lstats import Lstats
from vibflow.steps.recovery.project_files import ProjectFiles

if TYPE_CHECKING:
    from vibflow.steps.paths.policy import PathPolicy
    from vibflow.steps.recovery.git_memo import Pinned
    from vibflow.steps.workspace.git import Git

Kind = Literal["generated", "vendored", "build", "lockfile"]

#: Bytes read of each file for the content rules; a file shorter than this is read
#: whole and kept for the zone's reference rules (one read per file, not two).
WHOLE_BYTES = 8192
#: At most this many bytes of such files are kept.
KEEP_BYTES = 16 * 1024 * 1024
#: HEAD's copy of a marked file larger than this is not read (its marker unconfirmed).
HEAD_LARGEST = 1024 * 1024


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    reason: str


_LINGUIST = {
    "generated": Verdict("generated", "marked linguist-generated in .gitattributes"),
    "vendored": Verdict("vendored", "marked linguist-vendored in .gitattributes"),
}


#: What the name rules said of each path, per (rules, path policy) a process has
#: seen: those rules read the path alone, and a long-lived process asks again for
#: the same paths every preview. Holding the two objects keeps their ids theirs.
_BY_PATH: dict[tuple[str, int, int], tuple[object, object, dict[tuple[str, bool], Any]]] = {}
_PATHS_KEPT = 200_000


def _path_memo(what: str, rules: object, path_policy: object) -> dict[tuple[str, bool], Any]:
    key = (what, id(rules), id(path_policy))
    found = _BY_PATH.get(key)
    if found is None or found[0] is not rules or found[1] is not path_policy:
        if len(_BY_PATH) >= 8:
            _BY_PATH.clear()
        found = _BY_PATH[key] = (rules, path_policy, {})
    if len(found[2]) >= _PATHS_KEPT:
        found[2].clear()
    return found[2]


class Recogniser:
    """Classifies changed paths of one project (reads the work tree and git)."""

    def __init__(
        self,
        root: Path,
        git: Git,
        rules: GeneratedRules,
        path_policy: PathPolicy | None,
        pinned: Pinned | None = None,
        stats: Lstats | None = None,
        brought: Brought = NOTHING,
    ) -> None:
        """``brought``: what the change itself brought. A project file among it makes
        no build output beside it; when it touched an attributes file, every one is
        read as HEAD holds it."""
        self.root = root
        self.git = git
        self.rules = rules
        self.path_policy = path_policy
        self._project_files = ProjectFiles(root, git, brought)
        self._root = str(root)
        self._brought = brought
        #: Each build-output rule by its folder's last name (``public/assets/`` is found
        #: by ``assets``): (policy order, segments, rule).
        self._build_by_name: dict[str, list[tuple[int, list[str], BuildOutput]]] = {}
        for order, out in enumerate(rules.build_outputs):
            segments = out.folder.rstrip("/").split("/")
            self._build_by_name.setdefault(segments[-1], []).append((order, segments, out))
        self._build_names = frozenset(self._build_by_name)
        last_names = [f.file.rpartition("/")[2] for f in rules.build_files]
        self._build_files = frozenset(n for n in last_names if not is_glob(n))
        #: Build files named by a glob (``*.gem``): the first one a name matches.
        self._build_file_glob = first_match(tuple(n for n in last_names if is_glob(n)))
        #: Files read whole while looking for markers (small ones), by path.
        self.whole: dict[str, bytes] = {}
        self._kept = 0
        # A long-lived process keeps each file's content verdict by its lstat,
        # under every setting the verdict depends on.
        self._pinned = pinned
        self._said = _path_memo("names", rules, path_policy)  # classify's first rules
        self._rules_said = _path_memo("folders", rules, None)  # folder, compiled, build
        #: The preview's shared ``lstat`` answers (a content verdict is kept by one).
        self._stats = stats or Lstats(self._root)
        self._content_rules = (
            "generated.content",
            rules.marker_bytes,
            rules.marker_lines,
            rules.binary_magic,
            tuple((m.name, m.pattern) for m in rules.markers),
        )

    def classify(self, paths: Sequence[tuple[str, bool, bool]]) -> dict[str, Verdict]:
        """``paths``: (path, exists now, is a folder). The verdict of each path that is
        generated, vendored, build output or a lockfile; others are absent."""
        out: dict[str, Verdict] = {}
        rest: list[tuple[str, bool]] = []
        for path, exists, is_dir in paths:
            key = (path, is_dir)
            try:
                found = self._said[key]
            except KeyError:
                found = self._said[key] = self._by_name(path, is_dir)
            if found is not None:
                out[path] = found
            elif not is_dir:
                rest.append((path, exists))
        if rest:
            attrs = self._attributes([p for p, _ in rest]) if self.rules.attributes else {}
            out.update(self._by_rules(rest, attrs, {p for p, _, _ in paths}))
        return out

    def _by_rules(
        self,
        rest: Sequence[tuple[str, bool]],
        attrs: Mapping[str, Verdict | Literal[False]],
        changed: Collection[str],
    ) -> dict[str, Verdict]:
        """Rules 3-7 (see the module docstring) for paths the names did not settle;
        ``changed``: every path the change touched."""
        out: dict[str, Verdict] = {}
        waiting: dict[str, list[str]] = {}  # marker folder → its files without a marker
        marked: dict[str, str] = {}  # marker folder → its pattern, once a file is marked
        #: Files whose first lines carry a marker: (verdict, marker folder, its pattern).
        headed: dict[str, tuple[Verdict, str | None, str]] = {}
        open_paths: list[str] = []  # neither the policy's allow list nor the attributes
        for path, exists in rest:
            if self.rules.allow and any(glob_matcher(a)(path) for a in self.rules.allow):
                continue  # the project's policy says: our own source
            said = attrs.get(path)
            if said is not None:
                if said is not False:
                    out[path] = said
                continue  # the attributes say "not generated": the repository's word
            open_paths.append(path)
            found, folder, pattern, by_marker = self._rules_for(path, exists)
            if by_marker and found is not None:
                headed[path] = (found, folder, pattern)  # believed once HEAD agrees (below)
            else:
                _place(path, found, folder, pattern, out, marked, waiting)
        believed, before = self._marked_before(list(headed)) if headed else (set(), set())
        for path, (found, folder, pattern) in headed.items():
            if path in believed:
                # A file new with its marker is believed for itself; only one whose
                # HEAD copy was marked too makes its gen/ folder count: a header
                # the change wrote says nothing of the hand-written files beside it.
                _place(
                    path, found, folder if path in before else None, pattern, out, marked, waiting
                )
            # Refused, it is shown: HEAD's copy, without a header, says it was yours,
            # and no marked sibling in a gen/ folder says otherwise.
        for stub, module in stubs_of(open_paths, self.rules.stubs).items():
            # Only a module marked at HEAD too vouches: a header the change wrote
            # says nothing of the hand-written stub beside it.
            if module in before and stub not in out and stub not in headed:
                name = module.rpartition("/")[2]
                out[stub] = Verdict("generated", f"type stub of {name}, which carries a marker")
        out.update(self._by_companion([p for p in open_paths if p not in out], changed))
        for folder, members in waiting.items():
            if folder in marked:
                why = f"in a '{marked[folder]}' folder whose files carry a generated-code marker"
                out.update((path, Verdict("generated", why)) for path in members)
        return out

    def _rules_for(self, path: str, exists: bool) -> tuple[Verdict | None, str | None, str, bool]:
        """Rules 4-7 for one path: the verdict, the marker folder holding it (and its
        pattern), and whether the verdict is a generated-code marker's."""
        parts = path.split("/")
        key = (path, False)
        try:
            named, compiled, may_build, hit = self._rules_said[key]
        except KeyError:
            named, compiled = self._by_folder(parts), self._by_compiled(parts)
            may_build = not self._build_names.isdisjoint(parts[:-1]) or self._is_build_file(
                parts[-1]
            )
            hit = folder_hit(parts, self.rules.marker_folders)
            self._rules_said[key] = (named, compiled, may_build, hit)
        folder = "/".join(parts[: hit[0] + 1]) if hit is not None else None
        pattern = hit[1] if hit is not None else ""
        found = named or (self._by_build(parts) if may_build else None) or compiled
        if found is None and exists:
            found = self._by_content(path)
            return found, folder, pattern, found is not None and found.kind == "generated"
        return found, folder, pattern, False

    def _by_companion(self, paths: list[str], changed: Collection[str]) -> dict[str, Verdict]:
        """Files a tool wrote beside their source and named after it (``companions``),
        while the last commit holds that source — and, for an output the last commit
        holds too (edited or deleted), only when the change changed the source: a
        tool rewrites its output from its source, so an output changed alone is
        someone's edit."""
        asked = companion_sources(paths, self.rules.companions)
        if not asked:
            return {}
        held = self._project_files.predating({s for pairs in asked.values() for s, _ in pairs})
        out: dict[str, Verdict] = {}
        for path, pairs in asked.items():
            new = self._brought.has(path)
            found = next(((s, c) for s, c in pairs if s in held and (new or s in changed)), None)
            if found is not None:
                source, rule = found
                label = f" ({rule.ecosystem})" if rule.ecosystem else ""
                name = source.rpartition("/")[2]
                out[path] = Verdict("build", f"build output of '{name}' beside it{label}")
        return out

    def _marked_before(self, paths: list[str]) -> tuple[set[str], set[str]]:
        """Those of ``paths`` (files now carrying a generated-code marker) that carried
        one at HEAD too, or were not there; and those of them that carried one at
        HEAD (every one, without a commit).

        A marker that arrives with the change proves nothing: an agent that writes a
        generator's output (or a header) over a file you wrote by hand has changed
        that file, and hiding the change as "generated" is hiding the drift. A
        tool's output carries its marker before it is regenerated as after. What HEAD
        holds but cannot be read cheaply (a file over ``HEAD_LARGEST``, a binary one, a
        folder, a submodule) proves nothing either: such a file is shown."""
        try:
            if self.git.head() is None:
                return set(paths), set(paths)  # no commit yet: every file is new
            before = head_blobs(self.git, paths, self.rules.marker_bytes, HEAD_LARGEST)
        except VibflowError:
            return set(), set()  # HEAD unreadable: no marker is believed, nothing hidden
        marked = {
            path
            for path in paths
            if (head := before.get(path)) is not None
            and b"\0" not in head
            and self.rules.marker_in(head) is not None
        }
        return marked | {path for path in paths if path not in before}, marked

    def _attributes(self, paths: list[str]) -> dict[str, Verdict | Literal[False]]:
        said = linguist_attributes(
            self._root, self.git, paths, as_committed=self._brought.attributes
        )
        return {p: _LINGUIST[kind] if kind else False for p, kind in said.items()}

    # -- rules by name ----------------------------------------------------------------------

    def _by_name(self, path: str, is_dir: bool) -> Verdict | None:
        parts = path.split("/")
        if self.path_policy is not None:
            hit = self.path_policy.generated_match(parts, final_is_dir=is_dir)
            if hit is not None:
                return Verdict("build", f"cache or build output '{hit}' (paths.generated)")
        name = parts[-1]
        if not is_dir and first_match(self.rules.lockfiles)(name) is not None:
            return Verdict("lockfile", "lockfile, regenerated by its package manager")
        return None

    def _by_folder(self, parts: list[str]) -> Verdict | None:
        hit = folder_hit(parts, self.rules.generated_folders)
        if hit is not None:
            return Verdict("generated", f"in a '{hit[1]}' folder (generated code)")
        hit = folder_hit(parts, self.rules.vendored_folders)
        if hit is not None:
            return Verdict("vendored", f"in a '{hit[1]}' folder (vendored code)")
        return None

    def _by_build(self, parts: list[str]) -> Verdict | None:
        dirs = parts[:-1]
        if not self._build_names.isdisjoint(dirs):
            found = self._by_build_folder(dirs)
            if found is not None:
                return found
        return self._by_build_file(parts) if self._is_build_file(parts[-1]) else None

    def _is_build_file(self, name: str) -> bool:
        return name in self._build_files or self._build_file_glob(name) is not None

    def _by_build_folder(self, dirs: list[str]) -> Verdict | None:
        # Only the rules whose folder ends in one of the path's folder names are
        # tried, in policy order, each at its first place first.
        tried = [
            (order, j + 1 - len(segments), segments, out)
            for j, name in enumerate(dirs)
            for order, segments, out in self._build_by_name.get(name, ())
            if j + 1 >= len(segments)
        ]
        if len(tried) > 1:
            tried.sort(key=lambda one: (one[0], one[1]))
        for _, i, segments, out in tried:
            if dirs[i : i + len(segments)] == segments:
                found = self._beside(out.folder, "/".join(dirs[:i]), out.when, out.ecosystem)
                if found is not None:
                    return found
        return None

    def _by_build_file(self, parts: list[str]) -> Verdict | None:
        for out in self.rules.build_files:
            segments = out.file.split("/")
            n = len(segments)
            if (
                len(parts) >= n
                and parts[-n:-1] == segments[:-1]
                and fnmatchcase(parts[-1], segments[-1])
                and (not out.link or Path(self._root, *parts).is_symlink())
            ):
                found = self._beside(out.file, "/".join(parts[:-n]), out.when, out.ecosystem)
                if found is not None:
                    return found
        return None

    def _beside(
        self, output: str, holder: str, when: Sequence[str], ecosystem: str
    ) -> Verdict | None:
        """Build output ``output`` when ``holder`` has one of the project files
        ``when`` names (always, with none)."""
        if not when:
            return Verdict("build", f"build output '{output}'")
        found = self._project_files.find(holder, when)
        if found is None:
            return None
        label = f" ({ecosystem})" if ecosystem else ""
        return Verdict("build", f"build output '{output}' next to {found}{label}")

    def _by_compiled(self, parts: list[str]) -> Verdict | None:
        pattern = first_match(self.rules.compiled)(parts[-1])
        if pattern is not None:
            return Verdict("build", f"compiled file ('{pattern}')")
        pattern = first_match(self.rules.run_outputs)(parts[-1])
        return None if pattern is None else Verdict("build", f"run output ('{pattern}')")

    # -- rules by content -------------------------------------------------------------------

    def _by_content(self, path: str) -> Verdict | None:
        # A plain string join: Path objects cost more than the read at 3,000 files.
        where = os.path.join(self._root, path)  # noqa: PTH118
        key = None
        if self._pinned is not None:
            st = self._stats.get(path)
            if st is None:
                return None  # gone: nothing to read, as below
            key = self._pinned.key(st, path, self._content_rules)
            if key is not None:
                hit, kept = self._pinned.get(key)
                if hit:
                    verdict, whole = kept
                    if whole is not None:
                        self._keep(path, whole)
                    return verdict  # type: ignore[no-any-return]
        try:
            # Not through a symbolic link: a link's own text carries no marker, and a
            # file replaced by a link to a generated one is no generated file.
            fd = os.open(where, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as fh:
                head = fh.read(WHOLE_BYTES)
        except OSError:
            return None
        verdict = self._content_verdict(head)
        whole = head if len(head) < WHOLE_BYTES else None
        if whole is not None:
            self._keep(path, whole)
        if key is not None and self._pinned is not None:
            self._pinned.put(key, (verdict, whole), len(whole or b""))
        return verdict

    def _keep(self, path: str, whole: bytes) -> None:
        if self._kept + len(whole) <= KEEP_BYTES:
            self.whole[path] = whole  # the whole file: the zone's references reuse it
            self._kept += len(whole)

    def _content_verdict(self, head: bytes) -> Verdict | None:
        """Rule 7 on a file's first bytes (compiled programs, generated-code markers)."""
        head = head[: self.rules.marker_bytes]
        if self.rules.binary_magic:
            kind = magic_kind(head)
            if kind is not None:
                return Verdict("build", f"compiled program ({kind})")
        if self.rules.markers:
            name = self.rules.marker_in(head)
            if name is not None:
                return Verdict("generated", f"generated-code marker '{name}' in its first lines")
        return None


def _place(
    path: str,
    found: Verdict | None,
    folder: str | None,
    pattern: str,
    out: dict[str, Verdict],
    marked: dict[str, str],
    waiting: dict[str, list[str]],
) -> None:
    """Record one path's verdict; a generated one marks its marker folder, and a
    file of a marker folder without one waits for another file's marker."""
    if found is not None:
        out[path] = found
        if folder is not None and found.kind == "generated":
            marked.setdefault(folder, pattern)
    elif folder is not None:
        waiting.setdefault(folder, []).append(path)


def summary(reasons: Mapping[str, str]) -> list[tuple[str, int, str]]:
    """(reason, how many, an example path) per reason, the largest group first."""
    groups: dict[str, list[str]] = {}
    for path, reason in reasons.items():
        groups.setdefault(reason, []).append(path)
    return sorted(
        ((reason, len(ps), ps[0]) for reason, ps in groups.items()), key=lambda g: (-g[1], g[0])
    )
