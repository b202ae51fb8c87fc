#!/usr/bin/env python3
"""Validates a JSON document against a JSON schema (python3 stdlib only).

Implements the draft-04/07 keywords the SARIF 2.1.0 schema
(sarif-schema-2.1.0.json, vendored beside this file) uses: type, enum,
properties, required, additionalProperties (boolean or schema), items,
minItems, uniqueItems, minimum, maximum, pattern, anyOf, oneOf, local $ref
(#/definitions/...) and format uri / uri-reference / date-time. A keyword
the schema uses that is not implemented here is an error, so a schema
update cannot be checked only partly without anyone noticing.

usage: jsonschema_check.py SCHEMA DOCUMENT
  prints "valid: DOCUMENT" (exit 0), or up to 20 errors with their JSON
  pointers (exit 1).
"""
import json
import re
import sys
from urllib.parse import urlsplit

IGNORED = {"$schema", "id", "$id", "title", "description", "default",
           "definitions", "$comment", "examples"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}
DATE_TIME = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$", re.I)


def check_format(fmt, value):
    if not isinstance(value, str):
        return True
    if fmt == "date-time":
        return bool(DATE_TIME.match(value))
    if fmt in ("uri", "uri-reference"):
        if any(c in value for c in ' <>"{}|\\^`') or any(ord(c) < 32 for c in value):
            return False
        parts = urlsplit(value)
        return fmt == "uri-reference" or bool(parts.scheme)
    raise SystemExit(f"jsonschema_check.py: format '{fmt}' is not implemented")


class Validator:
    def __init__(self, root):
        self.root = root
        self.errors = []

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise SystemExit(f"jsonschema_check.py: non-local $ref '{ref}'")
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def valid(self, schema, value):
        """Whether VALUE matches, without recording errors (anyOf/oneOf)."""
        saved, self.errors = self.errors, []
        self.check(schema, value, "")
        ok = not self.errors
        self.errors = saved
        return ok

    def fail(self, path, msg):
        self.errors.append(f"{path or '/'}: {msg}")

    def check(self, s, v, path):
        if s is True or s == {}:
            return
        if s is False:
            return self.fail(path, "no value is allowed here")
        if "$ref" in s:
            return self.check(self.resolve(s["$ref"]), v, path)
        for key in s:
            if key not in IGNORED and not hasattr(self, "kw_" + key):
                raise SystemExit(f"jsonschema_check.py: keyword '{key}' is not implemented")
        for key, arg in s.items():
            if key not in IGNORED:
                getattr(self, "kw_" + key)(arg, s, v, path)

    def kw_type(self, t, s, v, path):
        names = t if isinstance(t, list) else [t]
        if not any(TYPES[n](v) for n in names):
            self.fail(path, f"expected {t}, got {type(v).__name__}")

    def kw_enum(self, allowed, s, v, path):
        if v not in allowed:
            self.fail(path, f"{v!r} is not one of {allowed}")

    def kw_properties(self, props, s, v, path):
        if isinstance(v, dict):
            for name, sub in props.items():
                if name in v:
                    self.check(sub, v[name], f"{path}/{name}")

    def kw_additionalProperties(self, extra, s, v, path):
        if not isinstance(v, dict):
            return
        known = s.get("properties", {})
        for name in v:
            if name in known:
                continue
            if extra is False:
                self.fail(path, f"property '{name}' is not allowed")
            elif isinstance(extra, dict):
                self.check(extra, v[name], f"{path}/{name}")

    def kw_required(self, names, s, v, path):
        if isinstance(v, dict):
            for name in names:
                if name not in v:
                    self.fail(path, f"required property '{name}' is missing")

    def kw_items(self, sub, s, v, path):
        if isinstance(v, list):
            for i, item in enumerate(v):
                self.check(sub, item, f"{path}/{i}")

    def kw_minItems(self, n, s, v, path):
        if isinstance(v, list) and len(v) < n:
            self.fail(path, f"fewer than {n} items")

    def kw_uniqueItems(self, on, s, v, path):
        if on and isinstance(v, list):
            seen = [json.dumps(x, sort_keys=True) for x in v]
            if len(set(seen)) != len(seen):
                self.fail(path, "items are not unique")

    def kw_minimum(self, n, s, v, path):
        if TYPES["number"](v) and v < n:
            self.fail(path, f"{v} is less than the minimum {n}")

    def kw_maximum(self, n, s, v, path):
        if TYPES["number"](v) and v > n:
            self.fail(path, f"{v} is more than the maximum {n}")

    def kw_pattern(self, pat, s, v, path):
        if isinstance(v, str) and not re.search(pat, v):
            self.fail(path, f"{v!r} does not match {pat}")

    def kw_format(self, fmt, s, v, path):
        if not check_format(fmt, v):
            self.fail(path, f"{v!r} is not a valid {fmt}")

    def kw_anyOf(self, subs, s, v, path):
        if not any(self.valid(sub, v) for sub in subs):
            self.fail(path, "matches none of anyOf")

    def kw_oneOf(self, subs, s, v, path):
        n = sum(self.valid(sub, v) for sub in subs)
        if n != 1:
            self.fail(path, f"matches {n} of oneOf, not exactly 1")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    schema = json.load(open(argv[1]))
    doc = json.load(open(argv[2]))
    v = Validator(schema)
    v.check(schema, doc, "")
    if v.errors:
        for e in v.errors[:20]:
            print(f"invalid: {e}")
        return 1
    print(f"valid: {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
