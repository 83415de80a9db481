"""JSON values kept in TEXT columns: compact on the way in, checked on the way out."""

from __future__ import annotations

import json
from typing import Any


def dump(value: Any) -> str:
    """Compact JSON; NaN and infinities are refused, as JSON has no such numbers."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def load(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{what} is not valid JSON ({exc})") from exc


def load_object(text: str, what: str) -> dict[str, Any]:
    value = load(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} is a JSON {type(value).__name__}, not an object")
    return value
