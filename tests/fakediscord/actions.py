"""INTERACTION_CREATE payloads for what a person does: run a slash command, click, pick, submit.

The builders refuse what a person could not do in the Discord client (an option the synced
command does not have, a disabled button, a value outside a select's options...) by raising
`ImpossibleAction`, so a test that drives the bot the wrong way fails where it went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .payloads import (
    authorizing_owners,
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from .protocol import (
    ATTACHMENT_SIZE_LIMIT,
    ComponentType,
    InteractionType,
    OptionType,
)
from .records import FakeChannel, FakeGuild, FakeMessage, FakeRole, FakeUser, walk_components
from .world import World

Json = dict[str, Any]
OptionValue = str | int | float | bool | FakeUser | FakeRole | FakeChannel

SUBCOMMAND_TYPES = (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)


class ImpossibleAction(AssertionError):
    """A person could not do this in Discord (so the test, or the bot, is wrong)."""


def interaction_payload(
    world: World,
    *,
    interaction_id: int,
    token: str,
    kind: InteractionType,
    user: FakeUser,
    channel: FakeChannel,
    data: Json,
    message: FakeMessage | None = None,
) -> Json:
    guild = world.guild_of(channel)
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": int(kind),
        "token": token,
        "version": 1,
        "data": data,
        "channel": channel_payload(world, channel),
        "channel_id": str(channel.id),
        "locale": user.locale,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "authorizing_integration_owners": authorizing_owners(guild.id if guild else None),
        "context": 0 if guild else 1,
    }
    if guild is not None:
        payload["guild_id"] = str(guild.id)
        payload["guild_locale"] = guild.locale
        payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        payload["member"] = member_payload(world, guild, user.id) | {
            "permissions": str(world.permissions(guild, user.id))
        }
        payload["app_permissions"] = str(world.channel_permissions(channel, world.bot.id))
    else:
        payload["user"] = user_payload(user)
        payload["app_permissions"] = "0"
    if message is not None:
        payload["message"] = message_payload(world, message)
    return payload


def command_data(
    world: World,
    command: Json,
    path: Sequence[str],
    options: Mapping[str, OptionValue],
    guild: FakeGuild | None,
) -> Json:
    """`data` of a chat-input command, with subcommand (group) options nested as Discord does."""
    shown = "/" + " ".join([command["name"], *path])
    definitions: list[Json] = command.get("options", [])
    chain: list[Json] = []
    for name in path:
        found = next(
            (d for d in definitions if d["name"] == name and d["type"] in SUBCOMMAND_TYPES), None
        )
        if found is None:
            raise ImpossibleAction(f"{shown}: no subcommand {name!r} in the synced command")
        chain.append(found)
        definitions = found.get("options", [])
    if any(d["type"] in SUBCOMMAND_TYPES for d in definitions):
        names = [d["name"] for d in definitions]
        raise ImpossibleAction(f"{shown} needs a subcommand, one of {names}")
    resolved: Json = {}
    values = _option_values(world, shown, definitions, options, guild, resolved)
    for sub in reversed(chain):
        values = [{"type": sub["type"], "name": sub["name"], "options": values}]
    data: Json = {"id": command["id"], "name": command["name"], "type": 1, "options": values}
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _option_values(
    world: World,
    shown: str,
    definitions: list[Json],
    given: Mapping[str, OptionValue],
    guild: FakeGuild | None,
    resolved: Json,
) -> list[Json]:
    known = {d["name"] for d in definitions}
    unknown = set(given) - known
    if unknown:
        raise ImpossibleAction(f"{shown} has no option {sorted(unknown)}; it has {sorted(known)}")
    values = []
    for definition in definitions:
        name = definition["name"]
        if name not in given:
            if definition.get("required", False):
                raise ImpossibleAction(f"{shown}: option {name!r} is required")
            continue
        kind = OptionType(definition["type"])
        encoded = _encode(world, kind, given[name], guild, resolved, f"{shown} {name}")
        _check_bounds(definition, encoded, f"{shown} {name}")
        values.append({"name": name, "type": int(kind), "value": encoded})
    return values


def _encode(
    world: World,
    kind: OptionType,
    value: OptionValue,
    guild: FakeGuild | None,
    resolved: Json,
    where: str,
) -> str | int | float | bool:
    if kind is OptionType.STRING and isinstance(value, str):
        return value
    if kind is OptionType.INTEGER and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is OptionType.NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if kind is OptionType.BOOLEAN and isinstance(value, bool):
        return value
    if kind in (OptionType.USER, OptionType.MENTIONABLE) and isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
        if guild is not None and value.id in guild.memberships:
            member = member_payload(world, guild, value.id, with_user=False)
            member["permissions"] = str(world.permissions(guild, value.id))
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind in (OptionType.ROLE, OptionType.MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        return str(value.id)
    if kind is OptionType.CHANNEL and isinstance(value, FakeChannel):
        channel = channel_payload(world, value)
        channel["permissions"] = str(world.channel_permissions(value, world.bot.id))
        resolved.setdefault("channels", {})[str(value.id)] = channel
        return str(value.id)
    raise ImpossibleAction(f"{where}: {value!r} does not fit an option of type {kind.name}")


def _check_bounds(definition: Json, value: str | int | float | bool, where: str) -> None:
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ImpossibleAction(f"{where}: {value!r} is not one of the choices {choices}")
    if isinstance(value, str) and definition["type"] == OptionType.STRING:
        if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
            raise ImpossibleAction(f"{where}: {value!r} has a length outside the allowed range")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ImpossibleAction(f"{where}: {value!r} is outside [{low}, {high}]")


def component_data(
    world: World,
    message: FakeMessage,
    custom_id: str,
    values: Sequence[str | FakeUser] | None,
    guild: FakeGuild | None,
) -> Json:
    """`data` of a click (values None) or a select pick on a component of `message`."""
    try:
        component = message.component(custom_id)
    except KeyError:
        present = [c.get("custom_id") for c in walk_components(message.components)]
        raise ImpossibleAction(
            f"message {message.id} has no component {custom_id!r}; it has {present}"
        ) from None
    if component.get("disabled", False):
        raise ImpossibleAction(f"component {custom_id!r} is disabled")
    kind = ComponentType(component["type"])
    if values is None:
        if kind is not ComponentType.BUTTON:
            raise ImpossibleAction(f"{custom_id!r} is a {kind.name}, not a button; use select()")
        return {"custom_id": custom_id, "component_type": int(kind)}
    if kind is ComponentType.BUTTON:
        raise ImpossibleAction(f"{custom_id!r} is a button; use click()")
    picked = list(values)
    if not component.get("min_values", 1) <= len(picked) <= component.get("max_values", 1):
        raise ImpossibleAction(f"{custom_id!r}: {len(picked)} values is outside min/max_values")
    data: Json = {"custom_id": custom_id, "component_type": int(kind)}
    if kind is ComponentType.STRING_SELECT:
        allowed = [o["value"] for o in component.get("options", [])]
        if not all(isinstance(v, str) and v in allowed for v in picked):
            raise ImpossibleAction(f"{custom_id!r}: {picked} not all among options {allowed}")
        data["values"] = picked
    elif kind is ComponentType.USER_SELECT:
        if not all(isinstance(v, FakeUser) for v in picked):
            raise ImpossibleAction(f"{custom_id!r} is a user select: pick FakeUser values")
        resolved: Json = {}
        data["values"] = [
            _encode(world, OptionType.USER, v, guild, resolved, custom_id) for v in picked
        ]
        data["resolved"] = resolved
    else:
        raise ImpossibleAction(f"the fake does not drive {kind.name} components yet")
    return data


def modal_submit_data(modal: Json, values: Mapping[str, str | Sequence[str]]) -> Json:
    """`data` of submitting `modal` with the given text (or select values) per custom_id."""
    used: set[str] = set()
    components = [_submitted(c, values, used) for c in modal["components"]]
    unknown = set(values) - used
    if unknown:
        raise ImpossibleAction(f"modal {modal['custom_id']!r} has no field {sorted(unknown)}")
    return {"custom_id": modal["custom_id"], "components": components}


def _submitted(component: Json, values: Mapping[str, str | Sequence[str]], used: set[str]) -> Json:
    kind = component["type"]
    base: Json = {"type": kind, "id": component.get("id")}
    if kind == ComponentType.ACTION_ROW:
        return base | {"components": [_submitted(c, values, used) for c in component["components"]]}
    if kind == ComponentType.LABEL:
        return base | {"component": _submitted(component["component"], values, used)}
    custom_id = component.get("custom_id")
    if custom_id is None:
        return base
    used.add(custom_id)
    given = values.get(custom_id)
    if kind == ComponentType.TEXT_INPUT:
        text = given if isinstance(given, str) else component.get("value") or ""
        if component.get("required", True) and not text:
            raise ImpossibleAction(f"modal field {custom_id!r} is required")
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if text and not low <= len(text) <= high:
            raise ImpossibleAction(f"modal field {custom_id!r}: length outside [{low}, {high}]")
        return base | {"custom_id": custom_id, "value": text}
    picked = [given] if isinstance(given, str) else list(given or [])
    return base | {"custom_id": custom_id, "values": picked}
