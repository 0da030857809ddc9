"""Compiled programs and objects, recognised by their first bytes.

A ``go build`` binary left at the top of a project, a ``.class`` or a ``.wasm``
module has no name rule to catch it reliably (a Go binary has no extension), but
every such format opens with a fixed signature its loader checks first.
"""

from __future__ import annotations

#: First bytes of compiled programs and objects: ELF, Mach-O (both byte orders,
#: 32/64-bit), fat Mach-O / Java class, PE (with its DOS stub), WebAssembly.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x7fELF", "ELF"),
    (b"\xfe\xed\xfa\xce", "Mach-O"),
    (b"\xfe\xed\xfa\xcf", "Mach-O"),
    (b"\xce\xfa\xed\xfe", "Mach-O"),
    (b"\xcf\xfa\xed\xfe", "Mach-O"),
    (b"\xca\xfe\xba\xbe", "Mach-O or Java class"),
    (b"\x00asm", "WebAssembly"),
)


#: The first byte of any of them: most files start otherwise and are settled at once.
_MAGIC_FIRST = frozenset(prefix[0] for prefix, _ in _MAGIC) | {ord("M")}


def magic_kind(head: bytes) -> str | None:
    """The kind of compiled program ``head`` (a file's first bytes) starts, if any."""
    if not head or head[0] not in _MAGIC_FIRST:
        return None
    for prefix, name in _MAGIC:
        if head.startswith(prefix):
            return name
    # "MZ" alone starts text files too; a PE program has NULs in its stub.
    if head.startswith(b"MZ") and b"\x00" in head[:64]:
        return "Windows PE"
    return None
