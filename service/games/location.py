"""Which database the ``RUMMY_DB`` setting names, and how to say where that is.

Unset (or empty): the SQLite file ``games.sqlite3`` in ``$XDG_DATA_HOME/rummy`` (by
default ``~/.local/share/rummy``).  A path or ``sqlite:///path``: that SQLite file.
``postgresql://user:password@host:port/database`` (also ``postgres://`` and
``postgresql+psycopg://``): that PostgreSQL database, through psycopg 3.  Anything else
is refused with a ``StoreConfigError`` that says what is accepted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from service.games.store import StoreConfigError

__all__ = ["SETTING", "Location", "default_path", "parse_location"]

SETTING = "RUMMY_DB"
ACCEPTED = (
    "a file path, sqlite:///PATH, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE "
    "(unset: the default SQLite file)"
)
POSTGRES_SCHEMES = frozenset({"postgresql", "postgres", "postgresql+psycopg"})
SQLITE_SCHEMES = frozenset({"sqlite", "sqlite+pysqlite"})
URL_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
"""A scheme and a colon ("postgresql:", "sqlite:"; not a drive letter)."""
PASSWORD = re.compile(r"(://[^:/@]*:)[^@/]*@")
"""The password of ``scheme://user:password@host``."""


@dataclass(frozen=True)
class Location:
    """A database the store can open: SQLAlchemy's URL for it, its kind, the SQLite
    file (``path``, for SQLite) and a description with any password masked."""

    url: URL
    kind: Literal["sqlite", "postgresql"]
    description: str
    path: Path | None = None


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """The default SQLite file: under ``$XDG_DATA_HOME`` when it is set to an absolute
    path (the XDG rule: a relative one is ignored), else under ``~/.local/share``."""
    environ = os.environ if environ is None else environ
    data_home = environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if data_home and Path(data_home).is_absolute() else Path.home() / ".local/share"
    return base / "rummy" / "games.sqlite3"


def _masked(setting: str) -> str:
    """``setting`` with the password of a URL in it replaced by ``***``."""
    return PASSWORD.sub(r"\1***@", setting)


def _refuse(setting: str, why: str) -> StoreConfigError:
    return StoreConfigError(f"{SETTING}={_masked(setting)!r}: {why}; {SETTING} accepts {ACCEPTED}")


def _sqlite(path: Path) -> Location:
    path = path.expanduser().absolute()
    return Location(URL.create("sqlite+pysqlite", database=str(path)), "sqlite", f"SQLite file {path}", path)


def _from_url(setting: str) -> Location:
    try:
        url = make_url(setting)
    except ArgumentError:
        raise _refuse(setting, "not a database URL") from None
    if url.drivername in SQLITE_SCHEMES:
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            raise _refuse(setting, "the SQLite URL names no file (games must outlive the server)")
        return _sqlite(Path(url.database))
    if url.drivername in POSTGRES_SCHEMES:
        if not url.database:
            raise _refuse(setting, "the PostgreSQL URL names no database (…/DATABASE at its end)")
        url = url.set(drivername="postgresql+psycopg")
        shown = url.render_as_string(hide_password=True)
        return Location(url, "postgresql", f"PostgreSQL database {shown}")
    if url.drivername.startswith("postgresql+"):
        driver = url.drivername.split("+", 1)[1]
        raise _refuse(setting, f"the driver {driver!r} is not used here (psycopg 3 is)")
    raise _refuse(setting, f"unsupported kind of database {url.drivername.split('+', 1)[0]!r}")


def parse_location(setting: str | None, environ: Mapping[str, str] | None = None) -> Location:
    """The database ``setting`` (``RUMMY_DB``'s value) names; ``StoreConfigError`` when it
    names none the store can use.  Nothing is opened or created here."""
    if setting is None or not setting.strip():
        return _sqlite(default_path(environ))
    setting = setting.strip()
    if "://" in setting:
        return _from_url(setting)
    if URL_LIKE.match(setting) and not Path(setting).exists():
        # "postgresql:foo", "sqlite:x.db": a URL mistyped, not a file name
        raise _refuse(setting, "looks like a URL without '//' (sqlite:///PATH, postgresql://...)")
    path = Path(setting).expanduser()
    if path.is_dir():
        raise _refuse(setting, "is a folder; name a file in it (e.g. games.sqlite3)")
    return _sqlite(path)
