"""The project recovery lock: a lease, never a bare lock file.

``.vibflow/recovery/lease.json`` records who holds the right to change files:
owner id, operation id, pid, host, acquired/expires times and a
``generation`` that increases on every takeover. Every read-modify-write of
it happens under a short ``filelock.FileLock`` mutex (``lease.mutex``), and
so does the final rename of every restored file (:meth:`Lease.commit`): the
holder checks ownership *and* generation inside the mutex, so a takeover can
never interleave with a write. The mutex file itself is never deleted
(filelock's own two-inode race); ``filelock>=3.29.5`` is pinned.

A lease expires (default 60 s, ``recovery.lease_seconds``) unless renewed; a
lease whose holder process is gone on this host can be taken over at once.
A second acquirer gets :class:`LeaseBusy` with the operation id and an ETA
taken from the holder's progress: a restore reports files done / total when
it starts writing and then as it goes (``progress.json``, beside the lease,
not flushed to disk — it is only a hint), and the rate since its first report
gives the time left. Before a rate is known the ETA is *unknown* and said to
be: the lease's expiry is no estimate (a live holder renews it for as long as
it works), so it is given apart, as when the lock frees should the holder stop.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ControlSignal, ErrorCode, VibflowError
from vibflow.engine.journal import Owner
from vibflow.engine.ownership import Liveness, current_owner, liveness

MUTEX_TIMEOUT = 10.0
#: Seconds between a restore's progress reports inside a batch (one small write each).
PROGRESS_EVERY = 0.5


class LeaseLost(ControlSignal):
    """The lease was taken over or expired: stop before the next file."""


class LeaseBusy(VibflowError):
    """Another restore holds the lease.

    ``progress`` is its (files done, files total) once it has reported any;
    ``eta_seconds`` is the time left at the rate it reported, or None while no
    rate is known (never the lease's length passed off as an estimate).
    ``lease_seconds_left`` is when the lock frees should the holder stop renewing.
    """

    def __init__(
        self,
        operation_id: str,
        eta_seconds: float | None,
        progress: tuple[int, int] | None = None,
        *,
        lease_seconds_left: float = 0.0,
    ) -> None:
        self.operation_id = operation_id
        self.eta_seconds = None if eta_seconds is None else max(0.0, eta_seconds)
        self.progress = progress
        self.lease_seconds_left = max(0.0, lease_seconds_left)
        where = f", {progress[0]} of {progress[1]} files done" if progress is not None else ""
        if self.eta_seconds is not None:
            when = f"Try again in about {self.eta_seconds:.0f} s, at its current rate."
        else:
            when = (
                "How long it will take is not known yet (it has not reported a rate); "
                "try again in a few seconds."
            )
        super().__init__(
            ErrorCode.BUSY,
            f"another restore is running in this project (operation {operation_id}{where})",
            hint=when,
        )


@dataclass(frozen=True)
class Progress:
    """How far the lease holder's restore is: files done of total, since ``started``."""

    operation_id: str
    generation: int
    started: str
    first_done: int  # done at the first report (a resumed restore starts part-way)
    done: int
    total: int
    at: str

    def eta_seconds(self, now: datetime) -> float | None:
        """Seconds left at the rate seen so far; None before a rate is known."""
        spent = datetime.fromisoformat(self.at) - datetime.fromisoformat(self.started)
        seconds = spent.total_seconds()
        moved = self.done - self.first_done
        if moved <= 0 or seconds <= 0:
            return None
        left = (self.total - self.done) * seconds / moved
        since = (now - datetime.fromisoformat(self.at)).total_seconds()
        return max(1.0, left - since)


@dataclass(frozen=True)
class LeaseRecord:
    owner_id: str
    operation_id: str
    pid: int
    host: str
    started: str
    acquired_at: str
    expires_at: str
    generation: int

    def expires(self) -> datetime:
        return datetime.fromisoformat(self.expires_at)


def _now() -> datetime:
    return datetime.now(UTC)


class LeaseFile:
    """The lease of one project; hand out :class:`Lease` handles."""

    def __init__(
        self, folder: Path, *, ttl_seconds: float = 60.0, clock: Callable[[], datetime] = _now
    ) -> None:
        self.folder = folder
        self.path = folder / "lease.json"
        self.ttl = ttl_seconds
        self.clock = clock
        self._mutex_path = folder / "lease.mutex"
        # The highest generation ever handed out: a released lease's file is
        # gone, and the next holder must still get a generation no earlier
        # holder had (restores name their temp files with it).
        self._counter_path = folder / "lease.generation"
        self.progress_path = folder / "progress.json"

    @contextmanager
    def mutex(self) -> Iterator[None]:
        from filelock import FileLock, Timeout

        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            with FileLock(str(self._mutex_path), timeout=MUTEX_TIMEOUT):
                yield
        except Timeout as exc:
            raise VibflowError(
                ErrorCode.BUSY, "the recovery lock is busy", hint="Try again in a moment."
            ) from exc

    def read(self) -> LeaseRecord | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return LeaseRecord(**data)
        except FileNotFoundError:
            return None
        except (ValueError, TypeError):
            return None  # a torn or foreign file is treated as no lease (and replaced)

    def _write(self, record: LeaseRecord) -> None:
        self._replace(self.path, json.dumps(asdict(record)))

    def _replace(self, target: Path, text: str) -> None:
        atomic_write(target, text, durable=True)

    def _last_generation(self) -> int:
        try:
            value = json.loads(self._counter_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        return value if isinstance(value, int) and value >= 0 else 0

    def acquire(self, operation_id: str, *, owner: Owner | None = None) -> Lease:
        owner = owner or current_owner()
        with self.mutex():
            now = self.clock()
            held = self.read()
            generation = self._last_generation()
            if held is not None:
                generation = max(generation, held.generation)
                alive = liveness(Owner(held.pid, held.host, held.started, held.owner_id))
                if held.expires() > now and alive is not Liveness.DEAD:
                    raise self._busy(held, now)
            record = LeaseRecord(
                owner_id=owner.token,
                operation_id=operation_id,
                pid=owner.pid,
                host=owner.host,
                started=owner.started,
                acquired_at=now.isoformat(),
                expires_at=(now + timedelta(seconds=self.ttl)).isoformat(),
                generation=generation + 1,
            )
            # The counter first: a crash between the two writes only skips a number.
            self._replace(self._counter_path, json.dumps(record.generation))
            self._write(record)
        return Lease(self, record)

    def busy(self) -> LeaseBusy | None:
        """The answer a second acquirer would get now (operation id and ETA), or None
        when nobody holds a live lease. Read-only: for a refusal that must say both."""
        held = self.read()
        now = self.clock()
        if held is None or held.expires() <= now:
            return None
        alive = liveness(Owner(held.pid, held.host, held.started, held.owner_id))
        return None if alive is Liveness.DEAD else self._busy(held, now)

    def _busy(self, held: LeaseRecord, now: datetime) -> LeaseBusy:
        progress = self.progress_of(held)
        left = (held.expires() - now).total_seconds()
        if progress is None:
            return LeaseBusy(held.operation_id, None, lease_seconds_left=left)
        return LeaseBusy(
            held.operation_id,
            progress.eta_seconds(now),
            (progress.done, progress.total),
            lease_seconds_left=left,
        )

    def progress_of(self, held: LeaseRecord) -> Progress | None:
        """The progress the holder of ``held`` reported, if it is that holder's."""
        try:
            found = Progress(**json.loads(self.progress_path.read_text(encoding="utf-8")))
            datetime.fromisoformat(found.started)
            datetime.fromisoformat(found.at)
        except (OSError, ValueError, TypeError):
            return None
        if (found.operation_id, found.generation) != (held.operation_id, held.generation):
            return None  # an earlier holder's
        return found

    def adopt(
        self, operation_id: str, generation: int, *, owner: Owner | None = None
    ) -> Lease | None:
        """The lease this process took earlier for ``operation_id``, if it still holds it.

        A guard takes the lease and a later step of the same run uses it; the
        handle is found again from the lease file (the operation, generation
        and holding process recorded there), never from process-local state.
        ``None`` when another process, generation or operation holds it, or it
        expired.
        """
        owner = owner or current_owner()
        with self.mutex():
            held = self.read()
            if (
                held is None
                or held.operation_id != operation_id
                or held.generation != generation
                or (held.pid, held.host, held.started) != (owner.pid, owner.host, owner.started)
                or held.expires() <= self.clock()
            ):
                return None
        return Lease(self, held)

    def status(self) -> dict[str, Any] | None:
        held = self.read()
        if held is None:
            return None
        left = (held.expires() - self.clock()).total_seconds()
        return {
            "operation_id": held.operation_id,
            "generation": held.generation,
            "expires_in_seconds": round(left, 1),
            "expired": left <= 0,
        }


class Lease:
    """A held lease. Every use re-checks owner *and* generation under the mutex."""

    def __init__(self, file: LeaseFile, record: LeaseRecord) -> None:
        self.file = file
        self._reported: datetime | None = None
        self.record = record

    @property
    def operation_id(self) -> str:
        return self.record.operation_id

    def _ours(self, held: LeaseRecord | None) -> bool:
        return (
            held is not None
            and held.owner_id == self.record.owner_id
            and held.generation == self.record.generation
            and held.expires() > self.file.clock()
        )

    def check(self) -> None:
        """Raise :class:`LeaseLost` unless we still hold the lease."""
        with self.file.mutex():
            if not self._ours(self.file.read()):
                raise LeaseLost(self.record.operation_id)

    def renew(self) -> None:
        with self.file.mutex():
            if not self._ours(self.file.read()):
                raise LeaseLost(self.record.operation_id)
            now = self.file.clock()
            self.record = LeaseRecord(
                **{
                    **asdict(self.record),
                    "expires_at": (now + timedelta(seconds=self.file.ttl)).isoformat(),
                }
            )
            self.file._write(self.record)

    def report_progress(self, done: int, total: int) -> None:
        """Say how far this lease's restore is (read by a second restore's ETA).

        Not under the mutex and not flushed: a lost or stale report only leaves
        someone's ETA unknown.
        """
        clock = self.file.clock()
        self._reported = clock
        now = clock.isoformat()
        mine = self.file.progress_of(self.record)
        started, first = (mine.started, mine.first_done) if mine is not None else (now, done)
        record = Progress(
            operation_id=self.record.operation_id,
            generation=self.record.generation,
            started=started,
            first_done=first,
            done=done,
            total=total,
            at=now,
        )
        atomic_write(self.file.progress_path, json.dumps(asdict(record)), durable=False)

    def report_progress_if_due(self, done: int, total: int) -> None:
        """Report while a batch's files are put in place too, at most every
        ``PROGRESS_EVERY`` seconds: on a slow disk a batch takes long enough that a
        second restore would otherwise have no rate, so no ETA, until it is through."""
        last = self._reported
        if last is None or (self.file.clock() - last).total_seconds() >= PROGRESS_EVERY:
            self.report_progress(done, total)

    def renew_if_due(self) -> None:
        """Renew once a third of the lease's time is used up.

        A restore calls this after every batch; each renewal is a locked,
        fsync'd write, and ownership is verified at every batch anyway (in
        :meth:`commit`), so renewing ~3 times per TTL keeps the lease alive
        at a fraction of the cost.
        """
        left = self.record.expires() - self.file.clock()
        if left < timedelta(seconds=self.file.ttl * 2 / 3):
            self.renew()

    @contextmanager
    def commit(self, on_lost: Callable[[], None] | None = None) -> Iterator[Callable[[], None]]:
        """Hold the mutex with ownership verified: do the final renames in here.

        Yields a check to call before each further file: nobody can take the
        lease over while the mutex is held, so only its expiry can change, and
        that needs no re-read of the file. ``on_lost`` runs, still under the
        mutex, when the lease turns out to be gone already.
        """
        with self.file.mutex():
            if not self._ours(self.file.read()):
                if on_lost is not None:
                    on_lost()
                raise LeaseLost(self.record.operation_id)

            def still_ours() -> None:
                if self.record.expires() <= self.file.clock():
                    raise LeaseLost(self.record.operation_id)

            yield still_ours

    def release(self) -> bool:
        """Give the lease up; never removes a lease someone else now holds."""
        with self.file.mutex():
            held = self.file.read()
            if (
                held is None
                or held.owner_id != self.record.owner_id
                or (held.generation != self.record.generation)
            ):
                return False
            self.file.path.unlink(missing_ok=True)
            return True


def new_operation_id() -> str:
    return f"op_{uuid.uuid4().hex}"
