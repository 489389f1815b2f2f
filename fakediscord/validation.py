"""Discord's validation of what a bot sends, with its limits, as its documentation states them.

Sources (discord-api-docs): interactions/application-commands (names, descriptions, options, choices,
localizations, 8000 characters, command counts), reference#locales, components/reference (action rows,
buttons, selects, text inputs, 40 components), resources/message (content, embed limits, allowed
mentions, 10 attachments), reference (10 MiB default upload limit per file).

Each check adds to an `Errors` tree shaped like Discord's 400 / 50035 "Invalid Form Body" answer:
``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}]}}``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from . import models as m

#: reference#locales
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ATTACHMENTS_MAX = 10
#: reference: "The default limit is 10 MiB", per file
UPLOAD_LIMIT = 10 * 1024 * 1024
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
COMPONENTS_V2_MAX = 40
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
BUTTON_URL_MAX = 512
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
SELECT_VALUES_MAX = 25
TEXT_INPUT_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
MODAL_TITLE_MAX = 45
LABEL_MAX = 45
#: resources/emoji.mdx, "Application-Owned Emoji": up to 2000 per application; Create: 256 KiB at most
APP_EMOJIS_MAX = 2000
EMOJI_IMAGE_MAX = 256 * 1024
#: emoji.mdx, "Emoji Formats": JPEG, PNG, GIF, WebP and AVIF
EMOJI_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"})
#: names: 2 to 32 characters (letters, digits, underscores); not in the docs, what Discord answers
EMOJI_NAME_MIN = 2
EMOJI_NAME_MAX = 32
COMMAND_NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
COMMAND_CHARS_MAX = 8000
COMMANDS_MAX = {1: 100, 2: 15, 3: 15}
STRING_OPTION_LENGTH_MAX = 6000
ALLOWED_MENTION_TYPES = ("roles", "users", "everyone")


class Errors:
    """Discord's nested error tree; `add("components.0.components.1.label", code, message)`."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[tuple[str, str, str]] = []

    def add(self, path: str, code: str, message: str) -> None:
        node = self.tree
        for part in [p for p in path.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append((path, code, message))

    def too_long(self, path: str, limit: int) -> None:
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: str, lo: int, hi: int) -> None:
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")

    def __bool__(self) -> bool:
        return bool(self.flat)


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(str(value)) if value is not None else 0


# ---------------------------------------------------------------------------- commands


def _name_char_ok(ch: str) -> bool:
    # ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (application-commands, "Application Command Naming")
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    cp = ord(ch)
    return 0x0900 <= cp <= 0x097F or 0xA8E0 <= cp <= 0xA8FF or 0x0E00 <= cp <= 0x0E7F  # Devanagari, Thai


def chat_input_name_ok(name: Any) -> bool:
    """The naming regex, and lower case wherever a letter has a lower-case variant."""
    return (isinstance(name, str) and 1 <= len(name) <= COMMAND_NAME_MAX and all(_name_char_ok(c) for c in name)
            and name == name.lower())


def _check_localizations(errors: Errors, path: str, locs: Any, *, names: bool, chat_input: bool) -> None:
    if locs is None:
        return
    if not isinstance(locs, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for key, value in locs.items():
        if key not in LOCALES:
            errors.add(f"{path}.{key}", "INVALID_LOCALE", f"Invalid locale {key!r}")
            continue
        if names:
            if chat_input and not chat_input_name_ok(value):
                errors.add(f"{path}.{key}", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {value!r}")
            elif not chat_input and not 1 <= _len(value) <= COMMAND_NAME_MAX:
                errors.bad_length(f"{path}.{key}", 1, COMMAND_NAME_MAX)
        elif not 1 <= _len(value) <= DESCRIPTION_MAX:
            errors.bad_length(f"{path}.{key}", 1, DESCRIPTION_MAX)


def _longest(obj: dict[str, Any], key: str) -> int:
    values = [obj.get(key) or ""] + list((obj.get(f"{key}_localizations") or {}).values())
    return max(_len(v) for v in values)


def validate_command(p: dict[str, Any], errors: Errors, path: str = "") -> None:
    """One application command payload (POST/PATCH, or an item of the bulk PUT)."""
    pre = f"{path}." if path else ""
    ctype = int(p.get("type", 1) or 1)
    name = p.get("name")
    chat = ctype == 1
    if chat:
        if not chat_input_name_ok(name):
            errors.add(f"{pre}name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        if not 1 <= _len(p.get("description")) <= DESCRIPTION_MAX:
            errors.bad_length(f"{pre}description", 1, DESCRIPTION_MAX)
    elif not 1 <= _len(name) <= COMMAND_NAME_MAX:
        errors.bad_length(f"{pre}name", 1, COMMAND_NAME_MAX)
    _check_localizations(errors, f"{pre}name_localizations", p.get("name_localizations"), names=True,
                         chat_input=chat)
    _check_localizations(errors, f"{pre}description_localizations", p.get("description_localizations"),
                         names=False, chat_input=chat)
    opts = p.get("options") or []
    if opts and not chat:
        errors.add(f"{pre}options", "APPLICATION_COMMAND_OPTIONS_INVALID", "Only chat input commands have options")
    _check_options(opts, errors, f"{pre}options", depth=0)
    if chat:
        total = _longest(p, "name") + _longest(p, "description") + _options_chars(opts)
        if total > COMMAND_CHARS_MAX:
            errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_CHARS_MAX})")


def _options_chars(opts: list[dict[str, Any]]) -> int:
    total = 0
    for o in opts:
        total += _longest(o, "name") + _longest(o, "description")
        for c in o.get("choices") or []:
            total += _longest(c, "name") + _len(c.get("value"))
        total += _options_chars(o.get("options") or [])
    return total


def _check_options(opts: Any, errors: Errors, path: str, *, depth: int) -> None:
    if not isinstance(opts, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if len(opts) > OPTIONS_MAX:
        errors.too_long(path, OPTIONS_MAX)
    seen_optional = False
    names: set[str] = set()
    kinds = {o.get("type") in (m.OPT_SUB_COMMAND, m.OPT_SUB_COMMAND_GROUP) for o in opts}
    if len(kinds) > 1:
        errors.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                   "Sub-commands and groups cannot be mixed with other options")
    for i, o in enumerate(opts):
        at = f"{path}.{i}"
        oname = o.get("name")
        if not chat_input_name_ok(oname):
            errors.add(f"{at}.name", "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {oname!r}")
        if oname in names:
            errors.add(f"{at}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(oname)
        if not 1 <= _len(o.get("description")) <= DESCRIPTION_MAX:
            errors.bad_length(f"{at}.description", 1, DESCRIPTION_MAX)
        _check_localizations(errors, f"{at}.name_localizations", o.get("name_localizations"), names=True,
                             chat_input=True)
        _check_localizations(errors, f"{at}.description_localizations", o.get("description_localizations"),
                             names=False, chat_input=True)
        otype = o.get("type")
        if otype in (m.OPT_SUB_COMMAND, m.OPT_SUB_COMMAND_GROUP):
            if depth >= (1 if otype == m.OPT_SUB_COMMAND_GROUP else 2) or (
                    otype == m.OPT_SUB_COMMAND_GROUP and depth > 0):
                errors.add(f"{at}.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands nested too deep")
            _check_options(o.get("options") or [], errors, f"{at}.options", depth=depth + 1)
            continue
        if o.get("required"):
            if seen_optional:
                errors.add(f"{at}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                           "Required options must be placed before non-required options")
        else:
            seen_optional = True
        choices = o.get("choices") or []
        if choices and o.get("autocomplete"):
            errors.add(f"{at}.autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                       "Autocomplete cannot be set with choices")
        if len(choices) > CHOICES_MAX:
            errors.too_long(f"{at}.choices", CHOICES_MAX)
        for j, c in enumerate(choices):
            if not 1 <= _len(c.get("name")) <= CHOICE_NAME_MAX:
                errors.bad_length(f"{at}.choices.{j}.name", 1, CHOICE_NAME_MAX)
            _check_choice_localizations(errors, f"{at}.choices.{j}.name_localizations", c.get("name_localizations"))
            if isinstance(c.get("value"), str) and len(c["value"]) > CHOICE_VALUE_MAX:
                errors.too_long(f"{at}.choices.{j}.value", CHOICE_VALUE_MAX)
        for key, lo in (("min_length", 0), ("max_length", 1)):
            if o.get(key) is not None and not lo <= int(o[key]) <= STRING_OPTION_LENGTH_MAX:
                errors.add(f"{at}.{key}", "NUMBER_TYPE_MAX", f"Must be between {lo} and {STRING_OPTION_LENGTH_MAX}")


def _check_choice_localizations(errors: Errors, path: str, locs: Any) -> None:
    if not locs:
        return
    for key, value in locs.items():
        if key not in LOCALES:
            errors.add(f"{path}.{key}", "INVALID_LOCALE", f"Invalid locale {key!r}")
        elif not 1 <= _len(value) <= CHOICE_NAME_MAX:
            errors.bad_length(f"{path}.{key}", 1, CHOICE_NAME_MAX)


def validate_command_list(payloads: list[dict[str, Any]], errors: Errors) -> None:
    """A bulk overwrite: each command, unique (name, type), at most 100 chat input / 15 user / 15 message."""
    seen: set[tuple[Any, int]] = set()
    counts: dict[int, int] = {}
    for i, p in enumerate(payloads):
        validate_command(p, errors, str(i))
        key = (p.get("name"), int(p.get("type", 1) or 1))
        if key in seen:
            errors.add(f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add(key)
        counts[key[1]] = counts.get(key[1], 0) + 1
    for t, n in counts.items():
        if n > COMMANDS_MAX.get(t, 100):
            errors.too_long("", COMMANDS_MAX.get(t, 100))


# ---------------------------------------------------------------------------- messages


def validate_content(payload: dict[str, Any], errors: Errors) -> None:
    content = payload.get("content")
    if content is not None and _len(content) > CONTENT_MAX:
        errors.too_long("content", CONTENT_MAX)


def validate_embeds(embeds: Any, errors: Errors) -> None:
    if not isinstance(embeds, list):
        errors.add("embeds", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if len(embeds) > EMBEDS_MAX:
        errors.too_long("embeds", EMBEDS_MAX)
    total = 0
    for i, e in enumerate(embeds):
        if not isinstance(e, dict):
            errors.add(f"embeds.{i}", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        for key, limit in EMBED_LIMITS.items():
            if _len(e.get(key)) > limit:
                errors.too_long(f"embeds.{i}.{key}", limit)
            total += _len(e.get(key))
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.too_long(f"embeds.{i}.fields", EMBED_FIELDS_MAX)
        for j, f in enumerate(fields):
            if not 1 <= _len(f.get("name")) <= EMBED_FIELD_NAME_MAX:
                errors.bad_length(f"embeds.{i}.fields.{j}.name", 1, EMBED_FIELD_NAME_MAX)
            if not 1 <= _len(f.get("value")) <= EMBED_FIELD_VALUE_MAX:
                errors.bad_length(f"embeds.{i}.fields.{j}.value", 1, EMBED_FIELD_VALUE_MAX)
            total += _len(f.get("name")) + _len(f.get("value"))
        footer = (e.get("footer") or {}).get("text")
        if _len(footer) > EMBED_FOOTER_MAX:
            errors.too_long(f"embeds.{i}.footer.text", EMBED_FOOTER_MAX)
        author = (e.get("author") or {}).get("name")
        if _len(author) > EMBED_AUTHOR_MAX:
            errors.too_long(f"embeds.{i}.author.name", EMBED_AUTHOR_MAX)
        total += _len(footer) + _len(author)
    if total > EMBED_TOTAL_MAX:
        errors.add("embeds", "MESSAGE_EMBEDS_TOO_LARGE", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


def validate_allowed_mentions(am: Any, errors: Errors) -> None:
    if am is None:
        return
    if not isinstance(am, dict):
        errors.add("allowed_mentions", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    parse = am.get("parse")
    if parse is not None:
        if not isinstance(parse, list) or any(x not in ALLOWED_MENTION_TYPES for x in parse):
            errors.add("allowed_mentions.parse", "BASE_TYPE_CHOICES",
                       f"Value must be one of {ALLOWED_MENTION_TYPES}.")
        else:
            for kind in ("users", "roles"):
                if kind in parse and am.get(kind):
                    errors.add("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                               f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')
    for kind in ("users", "roles"):
        ids = am.get(kind)
        if ids is None:
            continue
        if not isinstance(ids, list):
            errors.add(f"allowed_mentions.{kind}", "LIST_TYPE_CONVERT", "Must be an array.")
        elif len(ids) > 100:
            errors.too_long(f"allowed_mentions.{kind}", 100)
    if "replied_user" in am and not isinstance(am["replied_user"], bool):
        errors.add("allowed_mentions.replied_user", "BASE_TYPE_BOOLEAN", "Must be either true or false.")


# -- components, legacy and v2 (components/reference.mdx: "Component Types", each component's structure
# -- and child-component tables; resources/message.mdx: message flags, Create / Edit Message)

#: components/reference.mdx, Container / Section / Label "child components" tables
V2_TOP_LEVEL = frozenset({m.C_ACTION_ROW, m.C_SECTION, m.C_TEXT_DISPLAY, m.C_MEDIA_GALLERY, m.C_FILE, m.C_SEPARATOR,
                          m.C_CONTAINER})
CONTAINER_CHILDREN = frozenset({m.C_ACTION_ROW, m.C_TEXT_DISPLAY, m.C_SECTION, m.C_MEDIA_GALLERY, m.C_SEPARATOR,
                                m.C_FILE})
SECTION_CHILDREN = frozenset({m.C_TEXT_DISPLAY})
SECTION_ACCESSORIES = frozenset({m.C_BUTTON, m.C_THUMBNAIL})
MESSAGE_ROW_CHILDREN = frozenset({m.C_BUTTON, *m.SELECT_TYPES})
#: modals: Label (recommended), Text Display, and the deprecated Action Row holding one Text Input
MODAL_TOP_LEVEL = frozenset({m.C_LABEL, m.C_TEXT_DISPLAY, m.C_ACTION_ROW})
MODAL_ROW_CHILDREN = frozenset({m.C_TEXT_INPUT})
LABEL_CHILDREN = frozenset({m.C_TEXT_INPUT, *m.SELECT_TYPES, m.C_FILE_UPLOAD, m.C_RADIO_GROUP, m.C_CHECKBOX_GROUP,
                            m.C_CHECKBOX})
#: "Section Structure": one to three child components
SECTION_COMPONENTS_MAX = 3
#: "Media Gallery Structure": 1 to 10 media gallery items
GALLERY_ITEMS_MAX = 10
#: Thumbnail / Media Gallery Item: "Alt text for the media, max 1024 characters"
MEDIA_DESCRIPTION_MAX = 1024
#: Label: label max 45, description max 100
LABEL_DESCRIPTION_MAX = 100
#: Radio Group options 2-10, Checkbox Group options 1-10 and values 0-10, File Upload values 0-10
RADIO_OPTIONS = (2, 10)
CHECKBOX_OPTIONS = (1, 10)
FILE_UPLOAD_VALUES_MAX = 10
#: "Anatomy of a Component": id is a 32 bit integer
COMPONENT_ID_MAX = 2**31 - 1
#: the text of all the text displays of a message. The docs (reference.mdx) do not state it; discord.py's
#: LayoutView does ("a maximum of 4000 display characters across all its items") and Discord refuses more.
V2_TEXT_MAX = 4000
#: Modal: "Between 1 and 5 (inclusive) components" (interactions/receiving-and-responding.mdx)
MODAL_COMPONENTS_MAX = 5
ATTACHMENT_SCHEME = "attachment://"

_TYPE_NAMES = {1: "Action Row", 2: "Button", 3: "String Select", 4: "Text Input", 5: "User Select", 6: "Role Select",
               7: "Mentionable Select", 8: "Channel Select", 9: "Section", 10: "Text Display", 11: "Thumbnail",
               12: "Media Gallery", 13: "File", 14: "Separator", 17: "Container", 18: "Label", 19: "File Upload",
               21: "Radio Group", 22: "Checkbox Group", 23: "Checkbox"}


class _Components:
    """One walk over a message's (or a modal's) components, with what must be unique or summed."""

    def __init__(self, errors: Errors, *, where: str, attachment_names: set[str] | None,
                 emoji_ids: set[int] | None) -> None:
        self.errors = errors
        self.where = where  # "legacy", "v2" (messages) or "modal"
        self.attachment_names = attachment_names
        self.emoji_ids = emoji_ids
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()
        self.text = 0

    def wrong_type(self, at: str, allowed: frozenset[int], what: str) -> None:
        names = ", ".join(f"{t} ({_TYPE_NAMES.get(t, t)})" for t in sorted(allowed))
        self.errors.add(f"{at}.type", "UNION_TYPE_CHOICES",
                        f'Value of field "type" must be one of ({", ".join(str(t) for t in sorted(allowed))},): '
                        f"{what} takes {names}.")

    def child(self, c: Any, at: str, allowed: frozenset[int], what: str) -> None:
        if not isinstance(c, dict):
            self.errors.add(at, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        if c.get("type") not in allowed:
            self.wrong_type(at, allowed, what)
            return
        self.check(c, at)

    def media(self, item: Any, at: str, *, attachment_only: bool = False) -> None:
        """An unfurled media item: only `url` is settable; `attachment://name` must name an attachment."""
        url = item.get("url") if isinstance(item, dict) else None
        if not isinstance(url, str) or not url:
            self.errors.add(f"{at}.url", "BASE_TYPE_REQUIRED", "This field is required")
            return
        if url.startswith(ATTACHMENT_SCHEME):
            name = url[len(ATTACHMENT_SCHEME):]
            if self.attachment_names is not None and name not in self.attachment_names:
                # the docs name no code for this refusal; the message says what is wrong
                self.errors.add(f"{at}.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                f"No attachment named {name!r} in this message")
        elif attachment_only:
            self.errors.add(f"{at}.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
                            "The File component only supports attachment:// references")
        elif not url.startswith(("http://", "https://")):
            self.errors.add(f"{at}.url", "URL_TYPE_INVALID_URL", "Not a well formed URL.")

    def emoji(self, e: Any, at: str) -> None:
        """A partial emoji (`id`, `name`, `animated`): a custom one must exist (the fake has only
        application emojis); a standard one is its unicode `name`."""
        if e is None:
            return
        if not isinstance(e, dict):
            self.errors.add(at, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        eid = e.get("id")
        if eid is not None:
            try:
                known = self.emoji_ids is None or int(eid) in self.emoji_ids
            except (TypeError, ValueError):
                known = False
            if not known:
                self.errors.add(f"{at}.id", "COMPONENT_INVALID_EMOJI", "Invalid emoji")
        elif not e.get("name"):
            self.errors.add(f"{at}.name", "COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def check(self, c: dict[str, Any], at: str) -> None:  # noqa: C901 - one branch per component type
        t = c.get("type")
        err = self.errors
        cid_ = c.get("id")
        if cid_ is not None:
            if isinstance(cid_, bool) or not isinstance(cid_, int) or not 0 <= cid_ <= COMPONENT_ID_MAX:
                err.add(f"{at}.id", "NUMBER_TYPE_COERCE", "Value is not int32.")
            elif cid_ != 0:  # "an id of 0 ... will be treated as empty and replaced by the API"
                if cid_ in self.ids:
                    err.add(f"{at}.id", "COMPONENT_ID_DUPLICATED", "Component ids must be unique within the message")
                self.ids.add(cid_)
        cid = c.get("custom_id")
        if cid is not None:
            if not 1 <= _len(cid) <= CUSTOM_ID_MAX:
                err.bad_length(f"{at}.custom_id", 1, CUSTOM_ID_MAX)
            if cid in self.custom_ids:
                err.add(f"{at}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated")
            self.custom_ids.add(cid)
        modal = self.where == "modal"
        if modal and c.get("disabled"):
            # String Select: "Using disabled in a modal will result in an error"
            err.add(f"{at}.disabled", "COMPONENT_DISABLED_IN_MODAL", "Modals can not have disabled components")
        if t == m.C_ACTION_ROW:
            children = c.get("components") or []
            if not isinstance(children, list):
                err.add(f"{at}.components", "LIST_TYPE_CONVERT", "Must be an array.")
                return
            if not 1 <= len(children) <= ROW_BUTTONS_MAX:
                err.bad_length(f"{at}.components", 1, ROW_BUTTONS_MAX)
            wide = [x for x in children if isinstance(x, dict) and x.get("type") in m.SELECT_TYPES + (m.C_TEXT_INPUT,)]
            if wide and len(children) > 1:
                err.add(f"{at}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width")
            allowed = MODAL_ROW_CHILDREN if modal else MESSAGE_ROW_CHILDREN
            for j, x in enumerate(children):
                self.child(x, f"{at}.components.{j}", allowed, "An Action Row")
            return
        if t == m.C_BUTTON:
            self.button(c, at, cid)
            return
        if t in m.SELECT_TYPES:
            self.select(c, at, cid, modal=modal)
            return
        if t == m.C_TEXT_INPUT:
            self.text_input(c, at, cid)
            return
        if t == m.C_TEXT_DISPLAY:
            content = c.get("content")
            if not isinstance(content, str) or not content:
                err.add(f"{at}.content", "BASE_TYPE_REQUIRED", "This field is required")
            else:
                self.text += len(content)
            return
        if t == m.C_SECTION:
            comps = c.get("components") or []
            if not isinstance(comps, list) or not 1 <= len(comps) <= SECTION_COMPONENTS_MAX:
                err.bad_length(f"{at}.components", 1, SECTION_COMPONENTS_MAX)
                comps = comps if isinstance(comps, list) else []
            for j, x in enumerate(comps):
                self.child(x, f"{at}.components.{j}", SECTION_CHILDREN, "A Section")
            if c.get("accessory") is None:
                err.add(f"{at}.accessory", "BASE_TYPE_REQUIRED", "This field is required")
            else:
                self.child(c["accessory"], f"{at}.accessory", SECTION_ACCESSORIES, "A Section's accessory")
            return
        if t == m.C_THUMBNAIL:
            self.media(c.get("media"), f"{at}.media")
            if _len(c.get("description")) > MEDIA_DESCRIPTION_MAX:
                err.too_long(f"{at}.description", MEDIA_DESCRIPTION_MAX)
            return
        if t == m.C_MEDIA_GALLERY:
            items = c.get("items") or []
            if not isinstance(items, list) or not 1 <= len(items) <= GALLERY_ITEMS_MAX:
                err.bad_length(f"{at}.items", 1, GALLERY_ITEMS_MAX)
                items = items if isinstance(items, list) else []
            for j, it in enumerate(items):
                if not isinstance(it, dict):
                    err.add(f"{at}.items.{j}", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
                    continue
                self.media(it.get("media"), f"{at}.items.{j}.media")
                if _len(it.get("description")) > MEDIA_DESCRIPTION_MAX:
                    err.too_long(f"{at}.items.{j}.description", MEDIA_DESCRIPTION_MAX)
            return
        if t == m.C_FILE:
            self.media(c.get("file"), f"{at}.file", attachment_only=True)
            return
        if t == m.C_SEPARATOR:
            if c.get("spacing") is not None and c.get("spacing") not in (1, 2):
                err.add(f"{at}.spacing", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
            if c.get("divider") is not None and not isinstance(c.get("divider"), bool):
                err.add(f"{at}.divider", "BASE_TYPE_BOOLEAN", "Must be either true or false.")
            return
        if t == m.C_CONTAINER:
            color = c.get("accent_color")
            if color is not None and (isinstance(color, bool) or not isinstance(color, int)
                                      or not 0 <= color <= 0xFFFFFF):
                err.add(f"{at}.accent_color", "NUMBER_TYPE_MAX", "Must be between 0 and 16777215.")
            comps = c.get("components") or []
            for j, x in enumerate(comps if isinstance(comps, list) else []):
                self.child(x, f"{at}.components.{j}", CONTAINER_CHILDREN, "A Container")
            return
        if t == m.C_LABEL:
            if not 1 <= _len(c.get("label")) <= LABEL_MAX:
                err.bad_length(f"{at}.label", 1, LABEL_MAX)
            if _len(c.get("description")) > LABEL_DESCRIPTION_MAX:
                err.too_long(f"{at}.description", LABEL_DESCRIPTION_MAX)
            if c.get("component") is None:
                err.add(f"{at}.component", "BASE_TYPE_REQUIRED", "This field is required")
            else:
                self.child(c["component"], f"{at}.component", LABEL_CHILDREN, "A Label")
            return
        if t in (m.C_FILE_UPLOAD, m.C_RADIO_GROUP, m.C_CHECKBOX_GROUP, m.C_CHECKBOX):
            self.modal_input(c, at, cid)
            return
        err.add(f"{at}.type", "COMPONENT_INVALID_TYPE", f"Unknown component type {t!r}")

    def button(self, c: dict[str, Any], at: str, cid: Any) -> None:
        err = self.errors
        style = c.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            err.add(f"{at}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        if _len(c.get("label")) > BUTTON_LABEL_MAX:
            err.too_long(f"{at}.label", BUTTON_LABEL_MAX)
        self.emoji(c.get("emoji"), f"{at}.emoji")
        if style == 5:
            if not c.get("url"):
                err.add(f"{at}.url", "BASE_TYPE_REQUIRED", "This field is required")
            elif _len(c.get("url")) > BUTTON_URL_MAX:
                err.too_long(f"{at}.url", BUTTON_URL_MAX)
            if cid is not None:
                err.add(f"{at}.custom_id", "BUTTON_COMPONENT_LINK_OR_CUSTOM_ID", "A link button cannot have a custom id")
        elif style != 6:
            if cid is None:
                err.add(f"{at}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
            if not c.get("label") and not c.get("emoji"):
                err.add(f"{at}.label", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")

    def select(self, c: dict[str, Any], at: str, cid: Any, *, modal: bool) -> None:
        err = self.errors
        t = c.get("type")
        if cid is None:
            err.add(f"{at}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        if _len(c.get("placeholder")) > SELECT_PLACEHOLDER_MAX:
            err.too_long(f"{at}.placeholder", SELECT_PLACEHOLDER_MAX)
        lo = c.get("min_values", 1)
        hi = c.get("max_values", 1)
        if not isinstance(lo, int) or not 0 <= lo <= SELECT_VALUES_MAX:
            err.add(f"{at}.min_values", "NUMBER_TYPE_MAX", f"Must be between 0 and {SELECT_VALUES_MAX}")
        elif modal and lo == 0 and c.get("required", True):
            # "min_values must be either omitted or at least 1 if required is omitted or true"
            err.add(f"{at}.min_values", "NUMBER_TYPE_MIN", "Must be at least 1 when the select is required")
        if not isinstance(hi, int) or not 1 <= hi <= SELECT_VALUES_MAX:
            err.add(f"{at}.max_values", "NUMBER_TYPE_MAX", f"Must be between 1 and {SELECT_VALUES_MAX}")
        elif isinstance(lo, int) and lo > hi:
            err.add(f"{at}.min_values", "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                    "min_values must be less than or equal to max_values")
        if t == m.C_STRING_SELECT:
            opts = c.get("options") or []
            if not 1 <= len(opts) <= SELECT_OPTIONS_MAX:
                err.bad_length(f"{at}.options", 1, SELECT_OPTIONS_MAX)
            if isinstance(hi, int) and opts and hi > len(opts):
                err.add(f"{at}.max_values", "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                        "max_values cannot exceed the number of options")
            self.options(opts, at)

    def options(self, opts: list[Any], at: str, *, emoji: bool = True) -> None:
        err = self.errors
        values: set[Any] = set()
        for j, o in enumerate(opts):
            if not isinstance(o, dict):
                err.add(f"{at}.options.{j}", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
                continue
            for key in ("label", "value"):
                if not 1 <= _len(o.get(key)) <= SELECT_OPTION_TEXT_MAX:
                    err.bad_length(f"{at}.options.{j}.{key}", 1, SELECT_OPTION_TEXT_MAX)
            if _len(o.get("description")) > SELECT_OPTION_TEXT_MAX:
                err.too_long(f"{at}.options.{j}.description", SELECT_OPTION_TEXT_MAX)
            if emoji:
                self.emoji(o.get("emoji"), f"{at}.options.{j}.emoji")
            if o.get("value") in values:
                err.add(f"{at}.options.{j}.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique")
            values.add(o.get("value"))

    def text_input(self, c: dict[str, Any], at: str, cid: Any) -> None:
        err = self.errors
        if self.where != "modal":
            err.add(f"{at}.type", "COMPONENT_INVALID_TYPE", "Text Inputs can only be used within modals")
        if cid is None:
            err.add(f"{at}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        if c.get("style") not in (1, 2):
            err.add(f"{at}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        lo, hi = c.get("min_length"), c.get("max_length")
        if lo is not None and (not isinstance(lo, int) or not 0 <= lo <= TEXT_INPUT_MAX):
            err.add(f"{at}.min_length", "NUMBER_TYPE_MAX", f"Must be between 0 and {TEXT_INPUT_MAX}")
        if hi is not None and (not isinstance(hi, int) or not 1 <= hi <= TEXT_INPUT_MAX):
            err.add(f"{at}.max_length", "NUMBER_TYPE_MAX", f"Must be between 1 and {TEXT_INPUT_MAX}")
        if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
            err.add(f"{at}.min_length", "TEXT_INPUT_MIN_LENGTH_TOO_LARGE",
                    "min_length must be less than or equal to max_length")
        if _len(c.get("placeholder")) > TEXT_INPUT_PLACEHOLDER_MAX:
            err.too_long(f"{at}.placeholder", TEXT_INPUT_PLACEHOLDER_MAX)
        value_max = hi if isinstance(hi, int) and 1 <= hi <= TEXT_INPUT_MAX else TEXT_INPUT_MAX
        if _len(c.get("value")) > value_max:
            err.too_long(f"{at}.value", value_max)
        if _len(c.get("label")) > LABEL_MAX:  # deprecated in a Label; still limited
            err.too_long(f"{at}.label", LABEL_MAX)

    def modal_input(self, c: dict[str, Any], at: str, cid: Any) -> None:
        """File Upload, Radio Group, Checkbox Group, Checkbox: modal-only inputs inside a Label."""
        err = self.errors
        t = c.get("type")
        if self.where != "modal":
            err.add(f"{at}.type", "COMPONENT_INVALID_TYPE", f"{_TYPE_NAMES[t]} can only be used within modals")
        if cid is None:
            err.add(f"{at}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        if t == m.C_RADIO_GROUP:
            opts = c.get("options") or []
            if not RADIO_OPTIONS[0] <= len(opts) <= RADIO_OPTIONS[1]:
                err.bad_length(f"{at}.options", *RADIO_OPTIONS)
            self.options(opts, at, emoji=False)
        elif t == m.C_CHECKBOX_GROUP:
            opts = c.get("options") or []
            if not CHECKBOX_OPTIONS[0] <= len(opts) <= CHECKBOX_OPTIONS[1]:
                err.bad_length(f"{at}.options", *CHECKBOX_OPTIONS)
            self.options(opts, at, emoji=False)
        if t in (m.C_CHECKBOX_GROUP, m.C_FILE_UPLOAD):
            lo, hi = c.get("min_values"), c.get("max_values")
            if lo is not None and (not isinstance(lo, int) or not 0 <= lo <= FILE_UPLOAD_VALUES_MAX):
                err.add(f"{at}.min_values", "NUMBER_TYPE_MAX", f"Must be between 0 and {FILE_UPLOAD_VALUES_MAX}")
            if hi is not None and (not isinstance(hi, int) or not 1 <= hi <= FILE_UPLOAD_VALUES_MAX):
                err.add(f"{at}.max_values", "NUMBER_TYPE_MAX", f"Must be between 1 and {FILE_UPLOAD_VALUES_MAX}")


def validate_components(comps: Any, flags: int, errors: Errors, path: str = "components", *,
                        attachment_names: set[str] | None = None, emoji_ids: set[int] | None = None) -> None:
    """A message's components. Without IS_COMPONENTS_V2: at most 5 action rows of buttons or one select
    each. With it: the v2 layout (top level: Action Row, Section, Text Display, Media Gallery, File,
    Separator, Container; what each may hold), at most 40 components counting nested ones, 4,000
    characters over all text displays, unique ids, `attachment://` references that name an attachment
    of the message (`attachment_names`; None skips that check), custom emoji that exist (`emoji_ids`)."""
    if not isinstance(comps, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    v2 = bool(flags & m.F_IS_COMPONENTS_V2)
    walker = _Components(errors, where="v2" if v2 else "legacy", attachment_names=attachment_names,
                         emoji_ids=emoji_ids)
    if not v2 and len(comps) > ACTION_ROWS_MAX:
        errors.too_long(path, ACTION_ROWS_MAX)
    if v2 and sum(1 for _ in m.walk_components(comps)) > COMPONENTS_V2_MAX:
        errors.too_long(path, COMPONENTS_V2_MAX)
    top = V2_TOP_LEVEL if v2 else frozenset({m.C_ACTION_ROW})
    for i, c in enumerate(comps):
        walker.child(c, f"{path}.{i}", top, "A message" if v2 else "A message without IS_COMPONENTS_V2")
    if walker.text > V2_TEXT_MAX:
        errors.add(path, "MESSAGE_COMPONENTS_TEXT_TOO_LONG",
                   f"The text of all text displays must be {V2_TEXT_MAX} or fewer in length.")


def validate_modal(data: dict[str, Any], errors: Errors, *, emoji_ids: set[int] | None = None) -> None:
    """Callback 9 (interactions/receiving-and-responding.mdx, "Modal"): custom_id 1-100, title 1-45,
    1-5 components: Labels (holding a Text Input, a select, a File Upload, a Radio Group, a Checkbox
    Group or a Checkbox), Text Displays, or the deprecated Action Row holding one Text Input."""
    if not 1 <= _len(data.get("title")) <= MODAL_TITLE_MAX:
        errors.bad_length("data.title", 1, MODAL_TITLE_MAX)
    if not 1 <= _len(data.get("custom_id")) <= CUSTOM_ID_MAX:
        errors.bad_length("data.custom_id", 1, CUSTOM_ID_MAX)
    comps = data.get("components") or []
    if not isinstance(comps, list):
        errors.add("data.components", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if not 1 <= len(comps) <= MODAL_COMPONENTS_MAX:
        errors.bad_length("data.components", 1, MODAL_COMPONENTS_MAX)
    walker = _Components(errors, where="modal", attachment_names=None, emoji_ids=emoji_ids)
    for i, c in enumerate(comps):
        walker.child(c, f"data.components.{i}", MODAL_TOP_LEVEL, "A modal")
    for i, c in enumerate(comps):  # the old style: a Text Input in an Action Row carries its own label
        if isinstance(c, dict) and c.get("type") == m.C_ACTION_ROW:
            for j, x in enumerate(c.get("components") or []):
                if isinstance(x, dict) and x.get("type") == m.C_TEXT_INPUT and not 1 <= _len(x.get("label")) <= LABEL_MAX:
                    errors.bad_length(f"data.components.{i}.components.{j}.label", 1, LABEL_MAX)


def validate_choices(choices: Any, errors: Errors) -> None:
    if not isinstance(choices, list):
        errors.add("data.choices", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if len(choices) > CHOICES_MAX:
        errors.too_long("data.choices", CHOICES_MAX)
    for j, c in enumerate(choices):
        if not 1 <= _len(c.get("name")) <= CHOICE_NAME_MAX:
            errors.bad_length(f"data.choices.{j}.name", 1, CHOICE_NAME_MAX)
        if isinstance(c.get("value"), str) and len(c["value"]) > CHOICE_VALUE_MAX:
            errors.too_long(f"data.choices.{j}.value", CHOICE_VALUE_MAX)
        _check_choice_localizations(errors, f"data.choices.{j}.name_localizations", c.get("name_localizations"))
