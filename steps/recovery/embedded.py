"""Images a changed page or component shows: part of that page's change.

A recipe page with ``photo: '../../assets/recipes/creme-brulee.jpg'``, a how-to
with ``.. figure:: /_static/howto/opendap-subset.png``: the image arrives with
the page that shows it, and nothing in an image can name the page back. So an
image the change added or edited is in scope when a file in scope names it in
the lines its change added — by its file name, which for an image is
distinctive (``logo.png`` named anywhere is that one, or one like it). The
documentation page a leaf elsewhere (``evidence_closure``) is no leaf here: what
a page shows is the page.

Pure: changed files and their added lines in, image → the files naming it out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vibflow.steps.recovery.models import ChangedFile

#: Images a page or component shows by name.
IMAGE_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico", ".bmp", ".tif", ".tiff"}
)


def is_image(path: str) -> bool:
    name = path.rpartition("/")[2]
    return "." in name and "." + name.rpartition(".")[2].lower() in IMAGE_SUFFIXES


def shown(
    changed: Sequence[ChangedFile], added: Callable[[ChangedFile], list[str]], most: int
) -> dict[str, tuple[str, ...]]:
    """Each image the change added or edited → the changed files (at most ``most``
    read) whose added lines name it by its file name."""
    images: dict[str, list[str]] = {}
    for c in changed:
        if not c.generated and c.status != "deleted" and is_image(c.path):
            images.setdefault(c.path.rpartition("/")[2], []).append(c.path)
    if not images:
        return {}
    readers = [
        c
        for c in changed
        if not c.generated and not c.lockfile and c.status != "deleted" and not is_image(c.path)
    ]
    out: dict[str, list[str]] = {}
    for c in readers[:most]:
        text = "\n".join(added(c))
        for name, paths in images.items():
            if name in text:
                for path in paths:
                    out.setdefault(path, []).append(c.path)
    return {image: tuple(by) for image, by in out.items()}
