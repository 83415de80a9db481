"""Discord's own contract: every request body checked against its official OpenAPI schema.

`discord_api_spec/openapi.json` is Discord's description of its HTTP API (see the README
beside it). `SpecContract.check` finds the path of a request in it, takes the request schema
of that operation and validates the body (the JSON body, or the `payload_json` part of a
multipart one) with jsonschema, Draft 2020-12 as OpenAPI 3.1 prescribes, `$ref`s resolved
inside the file. The limits the schema does not carry (2,000 characters of content, 6,000
per message's embeds, unique custom ids...) are checked by `validation.py`.

Two adaptations, both narrow:

- discord.py sends some snowflakes as JSON integers where the schema says strings
  (`allowed_mentions.users`, attachment ids), and Discord accepts both. The schema marks
  every snowflake with `format: snowflake`, so the `type` keyword here accepts a
  non-negative 64-bit integer for exactly those schemas and nothing else.
- unions of objects that Discord tells apart by `type` are checked against the member the
  `type` names rather than against every member (`_discriminated`): the same verdict, much
  cheaper (with the verdict cache in `check`, the UI suites ran 4 % slower with the contract
  than without, against 25 % with neither).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .protocol import ContractViolation, contract_error

SPEC_FILE = Path(__file__).parent / "discord_api_spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec"
JSON_TYPE = "application/json"
MAX_SNOWFLAKE = 2**64 - 1
MAX_VERDICTS = 10_000
# Our own keyword, added to the spec by `_discriminated`: {type value: union member}.
DISPATCH = "x-fake-dispatch-by-type"
_TYPE_KEYWORD = Draft202012Validator.VALIDATORS["type"]


def _snowflake_aware_type(
    validator: Validator, types: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """The `type` keyword, except that a snowflake may also be written as a JSON integer."""
    if (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and 0 <= instance <= MAX_SNOWFLAKE
    ):
        return
    yield from _TYPE_KEYWORD(validator, types, instance, schema)


def _dispatch_by_type(
    validator: Validator, members: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """Validate an object against the one union member its `type` names (see `_discriminated`)."""
    if isinstance(instance, dict):
        member = members.get(str(instance.get("type")))
        if member is not None:
            # `descend` is on every jsonschema validator, though not on its Protocol.
            yield from cast(Any, validator).descend(instance, member)


DiscordValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"type": _snowflake_aware_type, DISPATCH: _dispatch_by_type}
)


def _path_regex(template: str) -> re.Pattern[str]:
    """`/channels/{channel_id}/messages` as a regex; literal segments like `@me` stay literal."""
    parts = re.split(r"(\{\w+\})", template)
    body = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(body + "$")


def _discriminated(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec, with every union of objects told apart by `type` checked by dispatch.

    jsonschema checks a `oneOf`/`anyOf` by validating the instance against every member;
    a component list nests such unions three deep, so one message costs milliseconds. When
    every member is a `$ref` to an object requiring a `type` from an enum, and the enums are
    disjoint (76 unions of the spec, among them components and interaction callbacks), the
    union is replaced by "an object whose `type` is one of these, valid against the member
    that `type` names" (the keyword `DISPATCH`): the same verdict, one member checked.
    """
    schemas = spec["components"]["schemas"]

    def member_types(ref: str) -> list[Any] | None:
        target = schemas.get(ref.removeprefix("#/components/schemas/"), {})
        if "type" not in target.get("required", []):
            return None
        enum = target.get("properties", {}).get("type", {}).get("enum")
        return list(enum) if isinstance(enum, list) and enum else None

    def rewrite(node: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: rewrite(value) for key, value in node.items()}
        for union in ("oneOf", "anyOf"):
            members = node.get(union)
            if not isinstance(members, list) or len(members) < 2:
                continue
            if not all(isinstance(m, dict) and set(m) == {"$ref"} for m in members):
                continue
            enums = [member_types(m["$ref"]) for m in members]
            values = [v for enum in enums for v in enum or []]
            if not all(enums) or len(values) != len(set(values)):
                continue
            dispatch = {
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"enum": values}},
                DISPATCH: {
                    str(value): member
                    for enum, member in zip(enums, members, strict=True)
                    for value in enum or []
                },
            }
            rest = {key: value for key, value in node.items() if key != union}
            node = {"allOf": [rest, dispatch]} if rest else dispatch
        return node

    rewritten: dict[str, Any] = rewrite(spec)
    return rewritten


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


class SpecContract:
    """The request schemas of Discord's OpenAPI description, compiled lazily per operation."""

    def __init__(self, spec: dict[str, Any]) -> None:
        spec = _discriminated(spec)
        self._spec = spec
        self._registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
        )
        # Literal paths first (`/users/@me` before `/users/{user_id}`), then the longest.
        templates = sorted(spec["paths"], key=lambda t: (t.count("{"), -len(t.split("/")), t))
        self._paths = [(template, _path_regex(template)) for template in templates]
        self._validators: dict[tuple[str, str], Validator | None] = {}
        self._verdicts: dict[tuple[str, str, str], tuple[str, str] | None] = {}

    def operation(self, method: str, path: str) -> str | None:
        """The spec's path template for a request path (`None` if Discord has no such path)."""
        wanted = method.lower()
        for template, regex in self._paths:
            if regex.match(path) and wanted in self._spec["paths"][template]:
                return str(template)
        return None

    def check(self, method: str, path: str, body: Any) -> None:
        """Raise `ContractViolation` (a 400 50035) if `body` breaks the route's request schema.

        A request whose route the spec does not describe, or whose operation takes no JSON
        body, passes: unknown routes are the router's business, not the contract's.
        """
        if body is None:
            return
        template = self.operation(method, path)
        if template is None:
            return
        validator = self._validator(method.lower(), template)
        if validator is None:
            return
        # A game sends the same bodies again and again (boards, buttons): judge each once.
        key = (method, template, json.dumps(body, sort_keys=True))
        if key not in self._verdicts:
            if len(self._verdicts) >= MAX_VERDICTS:
                self._verdicts.clear()
            self._verdicts[key] = self._judge(validator, method, template, body)
        verdict = self._verdicts[key]
        if verdict is not None:
            raise contract_error(*verdict)

    @staticmethod
    def _judge(
        validator: Validator, method: str, template: str, body: Any
    ) -> tuple[str, str] | None:
        """The offending field and why, or None when the body meets the schema."""
        error = best_match(validator.iter_errors(body))
        if error is None:
            return None
        field = ".".join(str(part) for part in error.absolute_path) or "body"
        return field, f"{error.message[:300]} (schema of {method} {template})"

    def _validator(self, method: str, template: str) -> Validator | None:
        key = (method, template)
        if key not in self._validators:
            operation = self._spec["paths"][template][method]
            content = (operation.get("requestBody") or {}).get("content") or {}
            if JSON_TYPE not in content:
                self._validators[key] = None
            else:
                pointer = _pointer("paths", template, method, "requestBody", "content")
                ref = f"{SPEC_URI}#{quote(pointer + _pointer(JSON_TYPE, 'schema'))}"
                self._validators[key] = DiscordValidator({"$ref": ref}, registry=self._registry)
        return self._validators[key]


@cache
def discord_contract() -> SpecContract:
    """The contract, read once per test process (the file is 1.2 MB)."""
    return SpecContract(json.loads(SPEC_FILE.read_text(encoding="utf-8")))


__all__ = ["ContractViolation", "SpecContract", "discord_contract"]
