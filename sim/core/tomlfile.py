"""Reading a user's TOML file (rule files, strategy files) with one-line errors."""

from __future__ import annotations

import tomllib
from pathlib import Path


def read_toml(spec: str, what: str, error: type[Exception]) -> dict:
    """The file's table; ``error`` (a one-line message naming the file) when it cannot be."""
    try:
        return tomllib.loads(Path(spec).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{what} {spec} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {what} {spec}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} {spec} is not valid TOML: {exc}") from None
