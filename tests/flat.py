"""Reports made of nested dicts and lists, flattened so that `pytest.approx` can compare them."""

from __future__ import annotations

from typing import Any


def flat(report: dict[str, Any] | list[Any], prefix: str = "") -> dict[str, Any]:
    """`{"a": {"b": 1}, "c": [2]}` becomes `{"a.b": 1, "c.0": 2}`; leaves are kept as they are."""
    items = report.items() if isinstance(report, dict) else enumerate(report)
    out: dict[str, Any] = {}
    for key, value in items:
        if isinstance(value, dict | list):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
